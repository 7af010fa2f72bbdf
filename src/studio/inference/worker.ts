// The inference thread: the WebAssembly models run here, away from the thread that answers HTTP
// requests. One request at a time, in the order they arrive.
import os from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { loadRuntime } from './tf-runtime.js';
import type { InferenceRequest, InferenceResponse, InferenceWorkerData } from './protocol.js';

if (!parentPort) throw new Error('worker.ts runs as a worker thread');
const port = parentPort;
// Started by createInference() (client.ts), which passes on the paths its caller gave.
const { modelDir, nice, posesFirst } = (workerData ?? {}) as Partial<InferenceWorkerData>;
if (typeof modelDir !== 'string') throw new Error('the inference thread needs workerData.modelDir (createInference() passes it)');
// The models are background work: this thread yields to its process's requests (on Linux the priority is a
// thread's own, and the threads the models start inherit it).
if (nice && os.getPriority(0) < nice) {
  try {
    os.setPriority(0, nice);
  } catch {
    // Not allowed here: the thread keeps the process's priority.
  }
}
let queue: Promise<void> = Promise.resolve();

port.on('message', (request: InferenceRequest) => {
  queue = queue.then(async () => {
    let response: InferenceResponse;
    try {
      const runtime = await loadRuntime({ modelDir, posesFirst: posesFirst === true });
      response =
        request.op === 'detect'
          ? { id: request.id, ok: true, op: 'detect', faces: await runtime.detectFaces(request.image) }
          : request.op === 'describe'
            ? { id: request.id, ok: true, op: 'describe', descriptor: await runtime.describeFace(request.image, request.face) }
            : request.op === 'poses'
              ? { id: request.id, ok: true, op: 'poses', poses: await runtime.detectPoses(request.image) }
              : { id: request.id, ok: true, op: 'segment', mask: await runtime.segment(request.image) };
    } catch (error) {
      response = { id: request.id, ok: false, error: error instanceof Error ? (error.stack ?? error.message) : String(error) };
    }
    port.postMessage(response, response.ok && response.op === 'segment' ? [response.mask.buffer as ArrayBuffer] : []);
  });
});
