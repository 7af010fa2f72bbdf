// The machine-learning runtime of the studio: TensorFlow.js on its WebAssembly backend, the face models of
// @vladmandic/human and the committed person-segmentation model, all read from files on this machine
// (installed packages and src/studio/models, whose folder the caller names): nothing is ever fetched from a network.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as tf from '@tensorflow/tfjs-core';
import { loadGraphModel, type GraphModel } from '@tensorflow/tfjs-converter';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import { POSE_INPUT } from './pose-size.js';
import { SEGMENTATION_SIZE } from './segmentation-size.js';
import { alignedChip, boxChip, loadFaceRecognitionNet, type FaceRecognitionNet } from './face-recognition.js';
import { releasePackedFilters } from './packed-filters.js';
import type { Box, DetectedFace, FaceDescriptor, FaceLandmarks, Pose, RgbImage } from './types.js';

const require = createRequire(import.meta.url);
const WASM_DIR = `${path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm'))}/`;
// The package's "exports" name only its tfjs-node build; its WebAssembly build sits beside it.
const HUMAN_DIR = path.dirname(require.resolve('@vladmandic/human'));
const HUMAN_WASM_BUILD = path.join(HUMAN_DIR, 'human.node-wasm.js');
const HUMAN_MODELS = path.join(HUMAN_DIR, '..', 'models');

async function readModel(file: URL): Promise<{ json: tf.io.ModelJSON; specs: tf.io.WeightsManifestEntry[]; data: Buffer }> {
  const json = JSON.parse(await readFile(file, 'utf8')) as tf.io.ModelJSON;
  const specs = json.weightsManifest.flatMap((group) => group.weights);
  const data = Buffer.concat(await Promise.all(json.weightsManifest.flatMap((group) => group.paths.map((p) => readFile(new URL(p, file))))));
  return { json, specs, data };
}

/**
 * tfjs loads `file://` model URLs through this router: the model JSON and its weight files from disk. Human
 * loads its face models this way (and reads their weights as one buffer).
 */
function registerFileLoader() {
  tf.io.registerLoadRouter(((url: string | string[]) => {
    const target = Array.isArray(url) ? url[0] : url;
    if (typeof target !== 'string' || !target.startsWith('file://')) return null;
    return {
      async load() {
        const { json, specs, data } = await readModel(new URL(target));
        return tf.io.getModelArtifactsForJSON(json, async () => [specs, data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) as ArrayBuffer]);
      },
    };
    // tfjs asks every router and takes the first handler; null means "not mine".
  }) as unknown as Parameters<typeof tf.io.registerLoadRouter>[0]);
}

/** Bytes per stored value, by the weight's stored (quantized) type. */
const STORED_BYTES: Record<string, number> = { float32: 4, int32: 4, bool: 1, uint8: 1, uint16: 2, float16: 2 };

/**
 * One of the studio's own models, its weights given to tfjs as a stream (one chunk per weight): a model given
 * its weights as one buffer keeps that buffer for as long as it lives (tfjs holds on to what it loaded from;
 * 9.4 MB for the pose model), one given a stream keeps only the weights themselves.
 */
async function loadStreamed(file: string): Promise<{ model: GraphModel; json: tf.io.ModelJSON }> {
  let json: tf.io.ModelJSON | null = null;
  const model = await loadGraphModel({
    async load(): Promise<tf.io.ModelArtifacts> {
      const read = await readModel(pathToFileURL(file));
      json = read.json;
      const { specs } = read;
      const { weightData: _kept, ...artifacts } = await tf.io.getModelArtifactsForJSON(read.json, async () => [specs, new ArrayBuffer(0)]);
      // Let go once read: tfjs keeps this function (with the artifacts) for as long as the model lives.
      let data: Buffer | null = read.data;
      let offset = 0;
      let next = 0;
      const getWeightStream = () =>
        new ReadableStream<ArrayBuffer>({
          pull(controller) {
            if (!data || offset >= data.byteLength) {
              data = null;
              return controller.close();
            }
            const spec = specs[next++];
            const bytes = spec && STORED_BYTES[spec.quantization?.dtype ?? spec.dtype];
            // A weight of a type without a fixed size (strings) takes the rest: tfjs reads on until it has enough.
            const end = spec && bytes ? Math.min(data.byteLength, offset + bytes * spec.shape.reduce((a, b) => a * b, 1)) : data.byteLength;
            controller.enqueue(data.buffer.slice(data.byteOffset + offset, data.byteOffset + end) as ArrayBuffer);
            offset = end;
            if (offset >= data.byteLength) {
              data = null;
              controller.close();
            }
          },
        });
      return { ...artifacts, getWeightStream };
    },
  });
  return { model, json: json! };
}

const CONVOLUTIONS = new Set(['Conv2D', '_FusedConv2D', 'DepthwiseConv2dNative', 'FusedDepthwiseConv2dNative']);

/** The weights of a graph model that are a convolution's filter and nothing else (packed-filters.ts). */
export function convolutionOnlyFilters(json: tf.io.ModelJSON): string[] {
  const nodes = (json.modelTopology as { node?: { op: string; input?: string[] }[] }).node ?? [];
  const uses = new Map<string, { op: string; index: number }[]>();
  for (const node of nodes) {
    (node.input ?? []).forEach((input, index) => {
      const name = input.replace(/^\^/, '').split(':')[0]!;
      uses.set(name, [...(uses.get(name) ?? []), { op: node.op, index }]);
    });
  }
  const weights = json.weightsManifest.flatMap((group) => group.weights.map((weight) => weight.name));
  return weights.filter((name) => {
    const used = uses.get(name) ?? [];
    return used.length > 0 && used.every((use) => CONVOLUTIONS.has(use.op) && use.index === 1);
  });
}

/**
 * MultiPose Lightning, run once on an empty input and its convolutions' filters then given back to the
 * WebAssembly heap (about 18 MB; packed-filters.ts). Its graph has no branches: every run runs every
 * convolution with the same arguments, whatever the input's size. `releaseFilters: false` keeps them (tests).
 */
export async function loadPoseModel(file: string, options: { releaseFilters?: boolean } = {}): Promise<GraphModel & { releasedBytes: number }> {
  const { model, json } = await loadStreamed(file);
  const filters = convolutionOnlyFilters(json).map((name) => model.weights[name]?.[0]);
  const warm = () => tf.tidy(() => model.execute(tf.zeros([1, POSE_INPUT, POSE_INPUT, 3], 'int32')) as tf.Tensor).dispose();
  const releasedBytes =
    options.releaseFilters === false || filters.some((filter) => !filter)
      ? 0
      : releasePackedFilters(filters.map((filter, index) => ({ filter: filter!, prepare: index === 0 ? warm : () => {} })));
  return Object.assign(model, { releasedBytes });
}

interface HumanFace {
  box: [number, number, number, number];
  score: number;
  rotation?: { angle: { roll: number; yaw: number; pitch: number } } | null;
  mesh?: [number, number, number?][];
}

interface HumanInstance {
  load(): Promise<void>;
  warmup(): Promise<unknown>;
  detect(input: tf.Tensor): Promise<{ face: HumanFace[] }>;
}

export interface Runtime {
  detectFaces(image: RgbImage): Promise<DetectedFace[]>;
  /**
   * The 128-d descriptor of a face: the given one (aligned by its landmarks, or else matched to a detection
   * by its box), or the largest face found. Null when there is no face.
   */
  describeFace(image: RgbImage, face?: Pick<DetectedFace, 'box' | 'landmarks'>): Promise<FaceDescriptor | null>;
  /** Person probability (0–255) per pixel of a SEGMENTATION_SIZE square input. */
  segment(image: RgbImage): Promise<Uint8Array>;
  /** The people in an image of any size by their 17 body points, in its pixels (the pose model's weak guesses left out). */
  detectPoses(image: RgbImage): Promise<Pose[]>;
}

/** Below this a person found by the pose model is too unsure to act on. */
const POSE_MIN_SCORE = 0.15;

// MediaPipe face mesh points (the mesh @vladmandic/human runs): eye corners and the point under the nose.
const MESH = { rightEyeOuter: 263, rightEyeInner: 362, leftEyeOuter: 33, leftEyeInner: 133, noseBottom: 2 } as const;

function landmarksOf(mesh: HumanFace['mesh']): FaceLandmarks | undefined {
  if (!mesh || mesh.length < 468) return undefined;
  const point = (index: number) => ({ x: mesh[index]![0], y: mesh[index]![1] });
  return {
    rightEyeOuter: point(MESH.rightEyeOuter),
    rightEyeInner: point(MESH.rightEyeInner),
    leftEyeOuter: point(MESH.leftEyeOuter),
    leftEyeInner: point(MESH.leftEyeInner),
    noseBottom: point(MESH.noseBottom),
  };
}

function overlap(a: Box, b: Box): number {
  const w = Math.max(0, Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x));
  const h = Math.max(0, Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y));
  return (w * h) / (a.width * a.height + b.width * b.height - w * h);
}

export interface RuntimeOptions {
  /** The folder of the studio's own models (src/studio/models): the person segmentation model, selfie.json. */
  modelDir: string;
  /**
   * Load the pose model (and run it once) with the face models, before any other work: for a process that makes
   * drafts. The models' WebAssembly memory keeps its largest size, and what it reaches depends on the order of
   * first runs: the pose model's run (about 55 MB of activations) after the descriptor net's took it to 144 MB,
   * before it to 120 MB, with every model run many times afterwards in either case. A thread that only checks
   * uploads never runs the pose model and leaves it out (its memory stays near 70 MB).
   */
  posesFirst?: boolean;
}

let runtime: Promise<Runtime> | null = null;

/** The thread's one runtime: loaded on the first call, with the options of that call. */
export function loadRuntime(options: RuntimeOptions): Promise<Runtime> {
  runtime ??= createRuntime(options);
  return runtime;
}

async function createRuntime(options: RuntimeOptions): Promise<Runtime> {
  registerFileLoader();
  setWasmPaths(WASM_DIR);
  const { Human } = require(HUMAN_WASM_BUILD) as { Human: new (config: object) => HumanInstance };
  const human = new Human({
    backend: 'wasm',
    wasmPath: WASM_DIR,
    modelBasePath: `${pathToFileURL(HUMAN_MODELS).href}/`,
    debug: false,
    async: false,
    warmup: 'none',
    cacheSensitivity: 0,
    filter: { enabled: false },
    face: {
      enabled: true,
      detector: { rotation: true, maxDetected: 5, minConfidence: 0.4, return: false },
      mesh: { enabled: true },
      attention: { enabled: false },
      iris: { enabled: false },
      description: { enabled: false },
      emotion: { enabled: false },
      antispoof: { enabled: false },
      liveness: { enabled: false },
      gear: { enabled: false },
    },
    body: { enabled: false },
    hand: { enabled: false },
    object: { enabled: false },
    gesture: { enabled: false },
    segmentation: { enabled: false },
  });
  // The WebAssembly module turns every uncaught error and unhandled rejection of the whole process into a
  // crash (its own listeners rethrow them); our process handles its errors itself, so they are removed.
  const before = { exception: process.listeners('uncaughtException'), rejection: process.listeners('unhandledRejection') };
  await human.load();
  for (const listener of process.listeners('uncaughtException')) if (!before.exception.includes(listener)) process.removeListener('uncaughtException', listener);
  for (const listener of process.listeners('unhandledRejection')) if (!before.rejection.includes(listener)) process.removeListener('unhandledRejection', listener);
  const { model: selfie } = await loadStreamed(path.join(options.modelDir, 'selfie.json'));
  // Loaded on first use (the poses first when asked): a thread that only checks uploads holds neither the poses' nor
  // the descriptors' weights.
  const loadPoses = () => loadPoseModel(path.join(options.modelDir, 'movenet-multipose.json'));
  let poses: Promise<GraphModel> | null = null;
  if (options.posesFirst) {
    try {
      poses = Promise.resolve(await loadPoses());
    } catch (error) {
      // Only the drafts need it: the checks run without it, and the first pose search loads it again (and fails
      // with the error then).
      console.warn(`the pose model could not be loaded first, it loads on first use: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  let recognition: Promise<FaceRecognitionNet> | null = null;
  /** The largest ratio of a photo's long to its short side that the detector gets as it is (a phone's 4:3 and 3:2; not 16:9). */
  const WIDEST_SQUEEZE = 1.5;

  async function detectFaces(image: RgbImage): Promise<DetectedFace[]> {
    // Human casts an int32 input to float32: given float32, the photo is in the WebAssembly memory once, not
    // twice (that memory keeps its largest size; 16 MB less for a 1024 px photo).
    // The detector squeezes its whole input into a square: in a photo wider (or taller) than WIDEST_SQUEEZE the
    // faces came out too narrow to be found (a 4146 × 1700 photo of two large faces: none). Such a photo is
    // padded to a square at its right or bottom, so its pixels, and the boxes found, keep their coordinates.
    const side = Math.max(image.width, image.height);
    const pad = side / Math.min(image.width, image.height) > WIDEST_SQUEEZE;
    const pixels = new Float32Array(pad ? side * side * 3 : image.data.length);
    if (pad) for (let y = 0; y < image.height; y++) pixels.set(image.data.subarray(y * image.width * 3, (y + 1) * image.width * 3), y * side * 3);
    else pixels.set(image.data);
    const input = tf.tensor3d(pixels, pad ? [side, side, 3] : [image.height, image.width, 3], 'float32');
    try {
      const result = await human.detect(input);
      return result.face.map((face) => ({
        box: { x: face.box[0], y: face.box[1], width: face.box[2], height: face.box[3] },
        score: face.score,
        yaw: face.rotation?.angle.yaw ?? 0,
        pitch: face.rotation?.angle.pitch ?? 0,
        roll: face.rotation?.angle.roll ?? 0,
        ...(landmarksOf(face.mesh) ? { landmarks: landmarksOf(face.mesh)! } : {}),
      }));
    } finally {
      input.dispose();
    }
  }

  return {
    detectFaces,
    async describeFace(image, given) {
      let face: Pick<DetectedFace, 'box' | 'landmarks'> | undefined = given;
      if (!face?.landmarks) {
        const found = await detectFaces(image);
        const best = given
          ? found.filter((candidate) => overlap(candidate.box, given.box) > 0.3).sort((a, b) => overlap(b.box, given.box) - overlap(a.box, given.box))[0]
          : found.sort((a, b) => b.box.height - a.box.height)[0];
        face = best?.landmarks ? best : (given ?? best);
      }
      if (!face) return null;
      const chip = face.landmarks ? alignedChip(image, face.landmarks) : boxChip(image, face.box);
      recognition ??= loadFaceRecognitionNet();
      return (await recognition).describeChip(chip);
    },
    async segment(image) {
      if (image.width !== SEGMENTATION_SIZE || image.height !== SEGMENTATION_SIZE) throw new Error(`segment() needs a ${SEGMENTATION_SIZE}px square`);
      const probabilities = tf.tidy(() => {
        const input = tf.div(tf.tensor4d(image.data, [1, SEGMENTATION_SIZE, SEGMENTATION_SIZE, 3], 'float32'), 255);
        return selfie.predict(input) as tf.Tensor;
      });
      try {
        const values = (await probabilities.data()) as Float32Array;
        const mask = new Uint8Array(values.length);
        for (let i = 0; i < values.length; i++) mask[i] = Math.round(Math.min(1, Math.max(0, values[i]!)) * 255);
        return mask;
      } finally {
        probabilities.dispose();
      }
    },
    async detectPoses(image) {
      poses ??= loadPoses();
      const model = await poses;
      const scale = POSE_INPUT / Math.max(image.width, image.height);
      const width = Math.max(32, Math.round((image.width * scale) / 32) * 32);
      const height = Math.max(32, Math.round((image.height * scale) / 32) * 32);
      const output = tf.tidy(() => {
        const pixels = tf.tensor3d(image.data, [image.height, image.width, 3], 'int32');
        const resized = tf.cast(tf.image.resizeBilinear(pixels, [height, width]), 'int32');
        return model.execute(tf.expandDims(resized, 0)) as tf.Tensor;
      });
      try {
        // [1, 6, 56]: per person 17 × (y, x, score) in the input's 0–1 coordinates, a box and the person's score.
        const values = (await output.data()) as Float32Array;
        const found: Pose[] = [];
        for (let person = 0; person < 6; person++) {
          const row = values.subarray(person * 56, person * 56 + 56);
          if (row[55]! < POSE_MIN_SCORE) continue;
          const keypoints = Array.from({ length: 17 }, (_, k) => ({ x: row[k * 3 + 1]! * image.width, y: row[k * 3]! * image.height, score: row[k * 3 + 2]! }));
          found.push({ score: row[55]!, keypoints });
        }
        return found;
      } finally {
        output.dispose();
      }
    },
  };
}

/**
 * The size of the models' WebAssembly memory in bytes (0 before the backend runs). It only ever grows: what the
 * models needed at once at most, and what stays resident in their thread.
 */
export function modelMemoryBytes(): number {
  if (tf.getBackend() !== 'wasm') return 0;
  return (tf.backend() as unknown as { wasm?: { HEAPU8?: Uint8Array } }).wasm?.HEAPU8?.byteLength ?? 0;
}
