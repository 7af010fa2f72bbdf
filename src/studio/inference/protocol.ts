import type { DetectedFace, FaceDescriptor, Pose, RgbImage } from './types.js';

export type InferenceRequest =
  | { id: number; op: 'detect'; image: RgbImage }
  | { id: number; op: 'segment'; image: RgbImage }
  | { id: number; op: 'poses'; image: RgbImage }
  | { id: number; op: 'describe'; image: RgbImage; face?: Pick<DetectedFace, 'box' | 'landmarks'> };

export type InferenceResponse =
  | { id: number; ok: true; op: 'detect'; faces: DetectedFace[] }
  | { id: number; ok: true; op: 'segment'; mask: Uint8Array }
  | { id: number; ok: true; op: 'poses'; poses: Pose[] }
  | { id: number; ok: true; op: 'describe'; descriptor: FaceDescriptor | null }
  | { id: number; ok: false; error: string };

/** What the inference thread is started with (its workerData): the caller's paths, as the studio knows none itself. */
export interface InferenceWorkerData {
  /** The folder of the studio's own models: selfie.json, movenet-multipose.json and their weights. */
  modelDir: string;
  /** The thread's scheduling priority ("nice", 0–19; 0 leaves it as it is). */
  nice: number;
  /** The pose model loads with the face models, before other work (RuntimeOptions.posesFirst in tf-runtime.ts). */
  posesFirst: boolean;
}
