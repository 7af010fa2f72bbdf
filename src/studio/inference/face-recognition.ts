// The face recognition net of @vladmandic/face-api (dlib's ResNet-34 face descriptor, converted to tfjs
// weights), run on the studio's own TensorFlow.js instance: face-api's bundle would bring a second tfjs
// into the thread, so its forward pass (src/faceRecognitionNet in the package, MIT) is rebuilt here from
// tfjs-core ops, and its weights are read from the package's files on disk.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as tf from '@tensorflow/tfjs-core';
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
  scale: tf.Tensor1D;
  shift: tf.Tensor1D;
}
interface Residual {
  conv1: ConvLayer;
  conv2: ConvLayer;
}

export interface FaceRecognitionNet {
  /** The 128-d descriptor of a face chip (CHIP_SIZE square, RGB). */
  describeChip(chip: RgbImage): Promise<FaceDescriptor>;
}

export async function loadFaceRecognitionNet(): Promise<FaceRecognitionNet> {
  const manifest = JSON.parse(await readFile(MANIFEST, 'utf8')) as tf.io.WeightsManifestConfig;
  const buffers = await Promise.all(manifest.flatMap((group) => group.paths.map((p) => readFile(path.join(FACE_API_MODELS, p)))));
  const data = Buffer.concat(buffers);
  const weights = tf.io.decodeWeights(
    data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength),
    manifest.flatMap((group) => group.weights),
  );
  const conv = (prefix: string): ConvLayer => ({
    filters: weights[`${prefix}/conv/filters`] as tf.Tensor4D,
    bias: weights[`${prefix}/conv/bias`] as tf.Tensor1D,
    scale: weights[`${prefix}/scale/weights`] as tf.Tensor1D,
    shift: weights[`${prefix}/scale/biases`] as tf.Tensor1D,
  });
  const residualParams = (prefix: string): Residual => ({ conv1: conv(`${prefix}/conv1`), conv2: conv(`${prefix}/conv2`) });
  const fc = weights.fc as tf.Tensor2D;

  function convLayer(x: tf.Tensor4D, layer: ConvLayer, strides: 1 | 2, relu: boolean, padding: 'valid' | 'same' = 'same'): tf.Tensor4D {
    const out = tf.add(tf.mul(tf.add(tf.conv2d(x, layer.filters, strides, padding), layer.bias), layer.scale), layer.shift) as tf.Tensor4D;
    return relu ? (tf.relu(out) as tf.Tensor4D) : out;
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

  return {
    async describeChip(chip) {
      if (chip.width !== CHIP_SIZE || chip.height !== CHIP_SIZE) throw new Error(`describeChip() needs a ${CHIP_SIZE}px square`);
      const output = tf.tidy(() => {
        const input = tf.div(tf.sub(tf.tensor4d(chip.data, [1, CHIP_SIZE, CHIP_SIZE, 3], 'float32'), tf.tensor1d([...MEAN_RGB])), 255) as tf.Tensor4D;
        let out = convLayer(input, layers.conv32_down, 2, true, 'valid');
        out = tf.maxPool(out, 3, 2, 'valid');
        for (const block of layers.blocks) out = block.down ? residualDown(out, block.params) : residual(out, block.params);
        return tf.matMul(tf.mean(out, [1, 2]) as tf.Tensor2D, fc);
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

/** Bilinear sample of one channel at (x, y); outside the image the nearest edge pixel. */
function sample(image: RgbImage, x: number, y: number, channel: number): number {
  const cx = Math.min(image.width - 1, Math.max(0, x));
  const cy = Math.min(image.height - 1, Math.max(0, y));
  const x0 = Math.floor(cx);
  const y0 = Math.floor(cy);
  const x1 = Math.min(image.width - 1, x0 + 1);
  const y1 = Math.min(image.height - 1, y0 + 1);
  const fx = cx - x0;
  const fy = cy - y0;
  const at = (px: number, py: number) => image.data[(py * image.width + px) * 3 + channel]!;
  return (at(x0, y0) * (1 - fx) + at(x1, y0) * fx) * (1 - fy) + (at(x0, y1) * (1 - fx) + at(x1, y1) * fx) * fy;
}

/**
 * Renders the chip whose pixel (u, v) shows the image at `toImage(u, v)`; each chip pixel averages a grid
 * of samples as wide as the chip pixel is in the image, so a large face is scaled down without aliasing.
 */
function renderChip(image: RgbImage, toImage: (u: number, v: number) => Point, imagePixelsPerChipPixel: number): RgbImage {
  const data = new Uint8Array(CHIP_SIZE * CHIP_SIZE * 3);
  const grid = Math.max(1, Math.min(4, Math.round(imagePixelsPerChipPixel)));
  for (let v = 0; v < CHIP_SIZE; v++) {
    for (let u = 0; u < CHIP_SIZE; u++) {
      for (let c = 0; c < 3; c++) {
        let sum = 0;
        for (let gy = 0; gy < grid; gy++) {
          for (let gx = 0; gx < grid; gx++) {
            const p = toImage(u + (gx + 0.5) / grid - 0.5, v + (gy + 0.5) / grid - 0.5);
            sum += sample(image, p.x, p.y, c);
          }
        }
        data[(v * CHIP_SIZE + u) * 3 + c] = Math.round(sum / (grid * grid));
      }
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
  return renderChip(image, (u, v) => ({ x: a * u - b * v + tx, y: b * u + a * v + ty }), Math.hypot(a, b));
}

/** Without landmarks: the detector's box made square around its centre, as face-api crops a detection. */
export function boxChip(image: RgbImage, box: Box): RgbImage {
  const side = Math.max(box.width, box.height);
  const left = box.x + box.width / 2 - side / 2;
  const top = box.y + box.height / 2 - side / 2;
  const scale = side / CHIP_SIZE;
  return renderChip(image, (u, v) => ({ x: left + (u + 0.5) * scale - 0.5, y: top + (v + 0.5) * scale - 0.5 }), scale);
}
