import type { DetectedFace, RgbImage } from './types.js';

export type InferenceRequest = { id: number; op: 'detect'; image: RgbImage } | { id: number; op: 'segment'; image: RgbImage };

export type InferenceResponse =
  | { id: number; ok: true; op: 'detect'; faces: DetectedFace[] }
  | { id: number; ok: true; op: 'segment'; mask: Uint8Array }
  | { id: number; ok: false; error: string };
