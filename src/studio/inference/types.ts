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

/** A face as the detector reports it; angles in radians (0 = looking straight at the camera). */
export interface DetectedFace {
  box: Box;
  score: number;
  yaw: number;
  pitch: number;
  roll: number;
}
