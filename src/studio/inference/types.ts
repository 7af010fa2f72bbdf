/** Raw RGB pixels, 3 bytes per pixel, row by row. */
export interface RgbImage {
  data: Uint8Array;
  width: number;
  height: number;
}

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Point {
  x: number;
  y: number;
}

/**
 * The five points dlib aligns its face chips by, in image pixels: the outer and inner corner of the eye on
 * the image's right (the person's left eye), of the eye on the image's left, and the bottom of the nose.
 */
export interface FaceLandmarks {
  rightEyeOuter: Point;
  rightEyeInner: Point;
  leftEyeOuter: Point;
  leftEyeInner: Point;
  noseBottom: Point;
}

/** A face as the detector reports it; angles in radians (0 = looking straight at the camera). */
export interface DetectedFace {
  box: Box;
  score: number;
  yaw: number;
  pitch: number;
  roll: number;
  /** From the face mesh, when the detector ran it. */
  landmarks?: FaceLandmarks;
}

/** What the face recognition net makes of a face: 128 numbers, compared by Euclidean distance. */
export type FaceDescriptor = number[];

/** One of a pose's 17 body points (COCO order: nose, eyes, ears, shoulders, elbows, wrists, hips, knees, ankles), in image pixels. */
export interface Keypoint {
  x: number;
  y: number;
  /** How sure the model is that this point is where it says (0–1). */
  score: number;
}

/** A person the pose model found: how sure it is, and their body points. */
export interface Pose {
  score: number;
  keypoints: Keypoint[];
}
