// Face detection, face descriptors and person segmentation, answered by a worker thread (worker.ts) that is started on
// first use and restarted if it dies. The HTTP thread never runs the models itself.
import path from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { InferenceRequest, InferenceResponse, InferenceWorkerData } from './protocol.js';
import type { DetectedFace, FaceDescriptor, Pose, RgbImage } from './types.js';

export interface Inference {
  detectFaces(image: RgbImage): Promise<DetectedFace[]>;
  /**
   * The 128-d descriptor of a face (dlib's ResNet face recognition net; compare with src/studio/identity.ts):
   * of the given face of `image` (a detection from detectFaces() on the same pixels: aligned by its
   * landmarks), or of the largest face found when none is given. Null when there is no face.
   * Descriptors are biometric data: keep them only as long as the photo, never log them.
   */
  describeFace(image: RgbImage, face?: Pick<DetectedFace, 'box' | 'landmarks'>): Promise<FaceDescriptor | null>;
  /** A SEGMENTATION_SIZE square in, the person probability (0–255) per pixel out. */
  segment(image: RgbImage): Promise<Uint8Array>;
  /**
   * The people in a photo by their body points (MoveNet MultiPose: up to six, including those whose face is
   * turned away or outside the photo), in the image's pixels. The studio tells friends' arms and shoulders from
   * the customer's by them.
   */
  detectPoses(image: RgbImage): Promise<Pose[]>;
  close(): Promise<void>;
}

/**
 * Where the inference thread and the models are. The studio does not guess them: where its files land
 * depends on who runs it (the server bundle puts the thread in a file of its own, dist/server), so the caller
 * says (the server: src/server/paths.ts; the studio's tests: test/inference.ts).
 */
export interface InferenceOptions {
  /** The thread's script: a built JavaScript file (the server bundle's studio-inference.js), or worker.ts run through tsx. */
  workerFile: string;
  /** The folder of the studio's own models (selfie.json, movenet-multipose.json and their weights): src/studio/models. */
  modelDir: string;
  /** The models' thread ends after this long without work (INFERENCE_IDLE_MS unless given). */
  idleMs?: number;
  /** The models' thread runs at this lower scheduling priority (0–19), so requests of its process go first. */
  nice?: number;
  /** The pose model loads first (RuntimeOptions.posesFirst in tf-runtime.ts says why; app-adapters.ts says for which processes). */
  posesFirst?: boolean;
}

/** A built worker as it is; the TypeScript one (tests, tsx) through tsx. */
function startWorker(workerFile: string, workerData: InferenceWorkerData): Worker {
  if (!/\.[cm]?ts$/.test(workerFile)) return new Worker(workerFile, { workerData });
  // Loader flags are not passed on to worker threads on Node 20: the thread registers tsx itself.
  const tsxRoot = path.dirname(createRequire(import.meta.url).resolve('tsx/package.json'));
  const tsx = pathToFileURL(path.join(tsxRoot, 'dist/esm/api/index.mjs')).href;
  const boot = `import(${JSON.stringify(tsx)}).then((api) => { api.register(); return import(${JSON.stringify(pathToFileURL(workerFile).href)}); });`;
  return new Worker(boot, { eval: true, workerData });
}

/** The models' thread ends after this long without work and starts again on the next photo. */
export const INFERENCE_IDLE_MS = 5 * 60 * 1000;

/** The models' thread of a process: whether it runs now, and whether it loads the pose model first (app-adapters.ts decides). */
export type ModelThread = Inference & { readonly threadRunning: boolean; readonly posesFirst: boolean };

export function createInference(options: InferenceOptions): ModelThread {
  const idleMs = options.idleMs ?? INFERENCE_IDLE_MS;
  const workerData: InferenceWorkerData = { modelDir: options.modelDir, nice: options.nice ?? 0, posesFirst: options.posesFirst ?? false };
  let worker: Worker | null = null;
  // The models take a few hundred MB: a shop between orders gives them back.
  let idleTimer: NodeJS.Timeout | null = null;
  let nextId = 1;
  // Each request belongs to the thread it was posted to: a thread stopped for idleness exits later, and its
  // exit must not fail the requests of the thread started after it.
  const pending = new Map<number, { thread: Worker; resolve: (response: InferenceResponse) => void; reject: (error: Error) => void }>();
  const pendingOn = (thread: Worker) => [...pending.values()].some((waiting) => waiting.thread === thread);

  function start(): Worker {
    if (worker) return worker;
    const started = startWorker(options.workerFile, workerData);
    // An idle model thread must not keep a finished process (a test, a script) alive.
    started.unref();
    started.on('message', (response: InferenceResponse) => {
      const waiting = pending.get(response.id);
      pending.delete(response.id);
      waiting?.resolve(response);
    });
    const fail = (error: Error) => {
      if (worker === started) worker = null;
      for (const [id, waiting] of pending) {
        if (waiting.thread !== started) continue;
        pending.delete(id);
        waiting.reject(error);
      }
    };
    started.on('error', fail);
    started.on('exit', (code) => fail(new Error(`inference thread exited with code ${code}`)));
    worker = started;
    return started;
  }

  function stopWhenIdle(thread: Worker) {
    if (idleTimer) clearTimeout(idleTimer);
    idleTimer = setTimeout(() => {
      idleTimer = null;
      if (worker !== thread || pendingOn(thread)) return;
      worker = null;
      void thread.terminate();
    }, idleMs);
    idleTimer.unref();
  }

  function call(request: InferenceRequest extends infer R ? (R extends unknown ? Omit<R, 'id'> : never) : never): Promise<InferenceResponse> {
    const id = nextId++;
    if (idleTimer) clearTimeout(idleTimer);
    const thread = start();
    return new Promise((resolve, reject) => {
      pending.set(id, { thread, resolve, reject });
      thread.ref();
      thread.postMessage({ ...request, id });
    }).finally(() => {
      if (!pendingOn(thread)) {
        thread.unref();
        stopWhenIdle(thread);
      }
    }) as Promise<InferenceResponse>;
  }

  return {
    get threadRunning() {
      return worker !== null;
    },
    posesFirst: workerData.posesFirst,
    async detectFaces(image) {
      const response = await call({ op: 'detect', image });
      if (!response.ok) throw new Error(response.error);
      if (response.op !== 'detect') throw new Error('unexpected answer');
      return response.faces;
    },
    async describeFace(image, face) {
      const response = await call(face ? { op: 'describe', image, face: { box: face.box, ...(face.landmarks ? { landmarks: face.landmarks } : {}) } } : { op: 'describe', image });
      if (!response.ok) throw new Error(response.error);
      if (response.op !== 'describe') throw new Error('unexpected answer');
      return response.descriptor;
    },
    async segment(image) {
      const response = await call({ op: 'segment', image });
      if (!response.ok) throw new Error(response.error);
      if (response.op !== 'segment') throw new Error('unexpected answer');
      return response.mask;
    },
    async detectPoses(image) {
      const response = await call({ op: 'poses', image });
      if (!response.ok) throw new Error(response.error);
      if (response.op !== 'poses') throw new Error('unexpected answer');
      return response.poses;
    },
    async close() {
      if (idleTimer) clearTimeout(idleTimer);
      const running = worker;
      worker = null;
      if (running) await running.terminate();
    },
  };
}
