// The face recognition net of @vladmandic/face-api (dlib's ResNet-34 face descriptor, converted to tfjs
// weights), run on the studio's own TensorFlow.js instance: face-api's bundle would bring a second tfjs
// into the thread, so its forward pass (src/faceRecognitionNet in the package, MIT) is rebuilt here from
// tfjs-core ops, and its weights are read from the package's files on disk.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as tf from '@tensorflow/tfjs-core';
import { releasePackedFilters } from './packed-filters.js';
import type { Box, FaceDescriptor, FaceLandmarks, Point, RgbImage } from './types.js';

const require = createRequire(import.meta.url);
const FACE_API_MODELS = path.join(path.dirname(require.resolve('@vladmandic/face-api/package.json')), 'model');
const MANIFEST = path.join(FACE_API_MODELS, 'face_recognition_model-weights_manifest.json');

/** The net's input: a 150 px square face chip. */
export const CHIP_SIZE = 150;
/** dlib's face chips for this net: the face's landmarks span the middle, with this share of margin each side. */
const CHIP_PADDING = 0.25;
const MEAN_RGB = [122.782, 117.001, 104.298] as const;

/**
 * Where dlib puts the five landmarks in a chip without padding (dlib get_face_chip_details, 5-point model):
 * the outer and inner corner of the eye on the image's right, the same of the other eye, the nose bottom.
 */
const DLIB_TEMPLATE: Record<keyof FaceLandmarks, Point> = {
  rightEyeOuter: { x: 0.8595674595992, y: 0.2134981538014 },
  rightEyeInner: { x: 0.6460604764104, y: 0.2289674387677 },
  leftEyeOuter: { x: 0.1205750620789, y: 0.2137274526848 },
  leftEyeInner: { x: 0.3340850613712, y: 0.2290642403242 },
  noseBottom: { x: 0.4901123135679, y: 0.6277975316475 },
};

interface ConvLayer {
  filters: tf.Tensor4D;
  bias: tf.Tensor1D;
}
interface Residual {
  conv1: ConvLayer;
  conv2: ConvLayer;
}

export interface FaceRecognitionNet {
  /** The 128-d descriptor of a face chip (CHIP_SIZE square, RGB). */
  describeChip(chip: RgbImage): Promise<FaceDescriptor>;
  /** Bytes of filters given back to the WebAssembly heap once packed (packed-filters.ts); 0 when kept. */
  readonly releasedBytes: number;
}

/** `releaseFilters: false` keeps the filters' own memory (the tests compare the two). */
export async function loadFaceRecognitionNet(options: { releaseFilters?: boolean } = {}): Promise<FaceRecognitionNet> {
  const manifest = JSON.parse(await readFile(MANIFEST, 'utf8')) as tf.io.WeightsManifestConfig;
  const buffers = await Promise.all(manifest.flatMap((group) => group.paths.map((p) => readFile(path.join(FACE_API_MODELS, p)))));
  const data = Buffer.concat(buffers);
  const weights = tf.io.decodeWeights(
    data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength),
    manifest.flatMap((group) => group.weights),
  );
  // Each convolution is followed by its bias and a per-channel scale and shift (dlib's affine layer): folded
  // into the filters and one bias once, they run as one fused convolution (with its ReLU).
  const conv = (prefix: string): ConvLayer => {
    const filters = weights[`${prefix}/conv/filters`] as tf.Tensor4D;
    const bias = weights[`${prefix}/conv/bias`] as tf.Tensor1D;
    const scale = weights[`${prefix}/scale/weights`] as tf.Tensor1D;
    const shift = weights[`${prefix}/scale/biases`] as tf.Tensor1D;
    const folded = { filters: tf.mul(filters, scale) as tf.Tensor4D, bias: tf.add(tf.mul(bias, scale), shift) as tf.Tensor1D };
    for (const tensor of [filters, bias, scale, shift]) tensor.dispose();
    return folded;
  };
  const residualParams = (prefix: string): Residual => ({ conv1: conv(`${prefix}/conv1`), conv2: conv(`${prefix}/conv2`) });
  const fc = weights.fc as tf.Tensor2D;

  function convLayer(x: tf.Tensor4D, layer: ConvLayer, strides: 1 | 2, relu: boolean, padding: 'valid' | 'same' = 'same'): tf.Tensor4D {
    return tf.fused.conv2d({ x, filter: layer.filters, strides, pad: padding, bias: layer.bias, activation: relu ? 'relu' : 'linear' });
  }
  function residual(x: tf.Tensor4D, params: Residual): tf.Tensor4D {
    const out = convLayer(convLayer(x, params.conv1, 1, true), params.conv2, 1, false);
    return tf.relu(tf.add(out, x)) as tf.Tensor4D;
  }
  function residualDown(x: tf.Tensor4D, params: Residual): tf.Tensor4D {
    let out = convLayer(convLayer(x, params.conv1, 2, true, 'valid'), params.conv2, 1, false);
    let pooled = tf.avgPool(x, 2, 2, 'valid');
    if (pooled.shape[1] !== out.shape[1] || pooled.shape[2] !== out.shape[2]) {
      out = tf.pad(out, [
        [0, 0],
        [0, 1],
        [0, 1],
        [0, 0],
      ]);
    }
    if (pooled.shape[3] !== out.shape[3]) pooled = tf.concat([pooled, tf.zerosLike(pooled)], 3);
    return tf.relu(tf.add(pooled, out)) as tf.Tensor4D;
  }

  const layers = {
    conv32_down: conv('conv32_down'),
    blocks: [
      ['r', 'conv32_1'],
      ['r', 'conv32_2'],
      ['r', 'conv32_3'],
      ['d', 'conv64_down'],
      ['r', 'conv64_1'],
      ['r', 'conv64_2'],
      ['r', 'conv64_3'],
      ['d', 'conv128_down'],
      ['r', 'conv128_1'],
      ['r', 'conv128_2'],
      ['d', 'conv256_down'],
      ['r', 'conv256_1'],
      ['r', 'conv256_2'],
      ['d', 'conv256_down_out'],
    ].map(([kind, name]) => ({ down: kind === 'd', params: residualParams(name!) })),
  };

  // Every convolution of the net with the arguments describeChip() runs it with, once each: then the filters'
  // own memory goes back to the heap (about 21 MB; packed-filters.ts says why that is safe here).
  type Convolution = { layer: ConvLayer; strides: 1 | 2; relu: boolean; padding: 'valid' | 'same' };
  const convolutions: Convolution[] = [
    { layer: layers.conv32_down, strides: 2, relu: true, padding: 'valid' },
    ...layers.blocks.flatMap(({ down, params }): Convolution[] => [
      { layer: params.conv1, strides: down ? 2 : 1, relu: true, padding: down ? 'valid' : 'same' },
      { layer: params.conv2, strides: 1, relu: false, padding: 'same' },
    ]),
  ];
  const releasedBytes =
    options.releaseFilters === false
      ? 0
      : releasePackedFilters(
          convolutions.map(({ layer, strides, relu, padding }) => ({
            filter: layer.filters,
            prepare: () => {
              const [height, width, channels] = layer.filters.shape;
              tf.tidy(() => convLayer(tf.zeros([1, height, width, channels]), layer, strides, relu, padding)).dispose();
            },
          })),
        );

  return {
    releasedBytes,
    async describeChip(chip) {
      if (chip.width !== CHIP_SIZE || chip.height !== CHIP_SIZE) throw new Error(`describeChip() needs a ${CHIP_SIZE}px square`);
      const output = tf.tidy(() => {
        const single = tf.div(tf.sub(tf.tensor4d(chip.data, [1, CHIP_SIZE, CHIP_SIZE, 3], 'float32'), tf.tensor1d([...MEAN_RGB])), 255) as tf.Tensor4D;
        // The chip and its mirror image, their descriptors averaged: one photo's light from one side, a parting,
        // a head a little turned count half as much. Measured on 16 people (docs/decisions/010): one person's
        // photos from up to 0.599 apart to up to 0.542; different people from 0.568 (0.573 before).
        const input = tf.concat([single, tf.reverse(single, 2)], 0) as tf.Tensor4D;
        let out = convLayer(input, layers.conv32_down, 2, true, 'valid');
        out = tf.maxPool(out, 3, 2, 'valid');
        for (const block of layers.blocks) out = block.down ? residualDown(out, block.params) : residual(out, block.params);
        return tf.mean(tf.matMul(tf.mean(out, [1, 2]) as tf.Tensor2D, fc), 0, true);
      });
      try {
        return Array.from(await output.data());
      } finally {
        output.dispose();
      }
    },
  };
}

/** Least-squares similarity transform (rotation, uniform scale, shift) taking `from` onto `to`. */
function similarityTransform(from: Point[], to: Point[]): { a: number; b: number; tx: number; ty: number } {
  const n = from.length;
  const mean = (points: Point[]) => ({ x: points.reduce((s, p) => s + p.x, 0) / n, y: points.reduce((s, p) => s + p.y, 0) / n });
  const mf = mean(from);
  const mt = mean(to);
  let dot = 0;
  let cross = 0;
  let norm = 0;
  for (let i = 0; i < n; i++) {
    const fx = from[i]!.x - mf.x;
    const fy = from[i]!.y - mf.y;
    const tx = to[i]!.x - mt.x;
    const ty = to[i]!.y - mt.y;
    dot += fx * tx + fy * ty;
    cross += fx * ty - fy * tx;
    norm += fx * fx + fy * fy;
  }
  // x' = a·x − b·y + tx, y' = b·x + a·y + ty
  const a = dot / norm;
  const b = cross / norm;
  return { a, b, tx: mt.x - (a * mf.x - b * mf.y), ty: mt.y - (b * mf.x + a * mf.y) };
}

/**
 * Renders the chip whose pixel (u, v) shows the image at the affine map of (u, v): x = a·u + b·v + c,
 * y = d·u + e·v + f. Each chip pixel averages a grid of bilinear samples as wide as the chip pixel is in the
 * image, so a large face is scaled down without aliasing; outside the image the nearest edge pixel counts.
 */
function renderChip(image: RgbImage, map: { a: number; b: number; c: number; d: number; e: number; f: number }, imagePixelsPerChipPixel: number): RgbImage {
  const data = new Uint8Array(CHIP_SIZE * CHIP_SIZE * 3);
  const grid = Math.max(1, Math.min(4, Math.round(imagePixelsPerChipPixel)));
  const { width, height, data: pixels } = image;
  for (let v = 0; v < CHIP_SIZE; v++) {
    for (let u = 0; u < CHIP_SIZE; u++) {
      let r = 0;
      let g = 0;
      let b = 0;
      for (let gy = 0; gy < grid; gy++) {
        const sv = v + (gy + 0.5) / grid - 0.5;
        for (let gx = 0; gx < grid; gx++) {
          const su = u + (gx + 0.5) / grid - 0.5;
          // One sample: its position and bilinear weights once, then the three channels.
          const cx = Math.min(width - 1, Math.max(0, map.a * su + map.b * sv + map.c));
          const cy = Math.min(height - 1, Math.max(0, map.d * su + map.e * sv + map.f));
          const x0 = Math.floor(cx);
          const y0 = Math.floor(cy);
          const x1 = Math.min(width - 1, x0 + 1);
          const y1 = Math.min(height - 1, y0 + 1);
          const fx = cx - x0;
          const fy = cy - y0;
          const i00 = (y0 * width + x0) * 3;
          const i10 = (y0 * width + x1) * 3;
          const i01 = (y1 * width + x0) * 3;
          const i11 = (y1 * width + x1) * 3;
          const w00 = (1 - fx) * (1 - fy);
          const w10 = fx * (1 - fy);
          const w01 = (1 - fx) * fy;
          const w11 = fx * fy;
          r += pixels[i00]! * w00 + pixels[i10]! * w10 + pixels[i01]! * w01 + pixels[i11]! * w11;
          g += pixels[i00 + 1]! * w00 + pixels[i10 + 1]! * w10 + pixels[i01 + 1]! * w01 + pixels[i11 + 1]! * w11;
          b += pixels[i00 + 2]! * w00 + pixels[i10 + 2]! * w10 + pixels[i01 + 2]! * w01 + pixels[i11 + 2]! * w11;
        }
      }
      const out = (v * CHIP_SIZE + u) * 3;
      data[out] = Math.round(r / (grid * grid));
      data[out + 1] = Math.round(g / (grid * grid));
      data[out + 2] = Math.round(b / (grid * grid));
    }
  }
  return { data, width: CHIP_SIZE, height: CHIP_SIZE };
}

/** dlib's aligned face chip: the five landmarks moved onto dlib's mean face, eyes level, 25 % margin. */
export function alignedChip(image: RgbImage, landmarks: FaceLandmarks): RgbImage {
  const names = Object.keys(DLIB_TEMPLATE) as (keyof FaceLandmarks)[];
  const target = names.map((name) => ({
    x: ((CHIP_PADDING + DLIB_TEMPLATE[name].x) / (2 * CHIP_PADDING + 1)) * CHIP_SIZE,
    y: ((CHIP_PADDING + DLIB_TEMPLATE[name].y) / (2 * CHIP_PADDING + 1)) * CHIP_SIZE,
  }));
  // From chip to image, so each chip pixel can look up its source.
  const { a, b, tx, ty } = similarityTransform(target, names.map((name) => landmarks[name]));
  return renderChip(image, { a, b: -b, c: tx, d: b, e: a, f: ty }, Math.hypot(a, b));
}

/** Without landmarks: the detector's box made square around its centre, as face-api crops a detection. */
export function boxChip(image: RgbImage, box: Box): RgbImage {
  const side = Math.max(box.width, box.height);
  const left = box.x + box.width / 2 - side / 2;
  const top = box.y + box.height / 2 - side / 2;
  const scale = side / CHIP_SIZE;
  // x = left + (u + 0.5)·scale − 0.5, likewise y
  return renderChip(image, { a: scale, b: 0, c: left + 0.5 * scale - 0.5, d: 0, e: scale, f: top + 0.5 * scale - 0.5 }, scale);
}
