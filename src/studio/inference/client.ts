// Face detection, face descriptors and person segmentation, answered by a worker thread (worker.ts) that is started on
// first use and restarted if it dies. The HTTP thread never runs the models itself.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { PROJECT_ROOT } from '../../server/paths.js';
import type { InferenceRequest, InferenceResponse } from './protocol.js';
import type { DetectedFace, FaceDescriptor, RgbImage } from './types.js';

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
  close(): Promise<void>;
}

const BUILT_WORKER = path.join(PROJECT_ROOT, 'dist/server/studio-inference.js');
const SOURCE_WORKER = path.join(PROJECT_ROOT, 'src/studio/inference/worker.ts');

/** The built worker beside the built server; from the sources (tests, tsx) the TypeScript one, through tsx. */
function startWorker(): Worker {
  const runningBuilt = fileURLToPath(import.meta.url).includes(`${path.sep}dist${path.sep}server${path.sep}`);
  if (runningBuilt && existsSync(BUILT_WORKER)) return new Worker(BUILT_WORKER);
  // Loader flags are not passed on to worker threads on Node 20: the thread registers tsx itself.
  const tsxRoot = path.dirname(createRequire(import.meta.url).resolve('tsx/package.json'));
  const tsx = pathToFileURL(path.join(tsxRoot, 'dist/esm/api/index.mjs')).href;
  const boot = `import(${JSON.stringify(tsx)}).then((api) => { api.register(); return import(${JSON.stringify(pathToFileURL(SOURCE_WORKER).href)}); });`;
  return new Worker(boot, { eval: true });
}

/** The models' thread ends after this long without work and starts again on the next photo. */
export const INFERENCE_IDLE_MS = 5 * 60 * 1000;

export function createInference(options: { idleMs?: number } = {}): Inference & { readonly threadRunning: boolean } {
  const idleMs = options.idleMs ?? INFERENCE_IDLE_MS;
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
    const started = startWorker();
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
    async close() {
      if (idleTimer) clearTimeout(idleTimer);
      const running = worker;
      worker = null;
      if (running) await running.terminate();
    },
  };
}
