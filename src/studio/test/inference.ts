// The inference of the studio's own tests, which run from the sources (vitest): the thread's TypeScript file
// and the models found from this file. Only for tests: in the server bundle a studio file's place says nothing
// about where the thread and the models are, which is why createInference() takes them from its caller.
import { fileURLToPath } from 'node:url';
import { createInference, type InferenceOptions } from '../inference/client.js';

export const SOURCE_INFERENCE: Pick<InferenceOptions, 'workerFile' | 'modelDir'> = {
  workerFile: fileURLToPath(new URL('../inference/worker.ts', import.meta.url)),
  modelDir: fileURLToPath(new URL('../models', import.meta.url)),
};

export function createTestInference(options: Pick<InferenceOptions, 'idleMs' | 'nice'> = {}): ReturnType<typeof createInference> {
  return createInference({ ...SOURCE_INFERENCE, ...options });
}
