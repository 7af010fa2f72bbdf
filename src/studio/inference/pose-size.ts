/** MultiPose Lightning's input: the longer side at this size, both sides a multiple of 32. Callers may send it this small. */
export const POSE_INPUT = 256;
