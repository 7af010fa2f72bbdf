// Every limit of the quality gate in one place (tested in quality-gate.test.ts on a real portrait and on
// the same portrait made bad). Angles in radians, brightness 0–255, sizes as fractions of the image.

export const GATE = {
  /** Photos are examined at this size on the long side (faster, and the limits below do not depend on it). */
  analysisLongSidePx: 1024,
  /** A detection below this confidence is not a face. */
  minFaceScore: 0.5,
  /** A second face at least this large (relative to the main face's height) makes the photo refused. */
  otherFaceRelativeHeight: 0.45,
  /** Warning below this: the face's height as a part of the photo's height. */
  minFaceHeightRatio: 0.14,
  /** Warning below this: the face's height in pixels of the stored photo (too little detail). */
  minFaceHeightPx: 220,
  /** Warning above these: head turned sideways (yaw) or tilted up or down (pitch); about 26°. */
  maxYaw: 0.45,
  maxPitch: 0.45,
  /** Warning below this: variance of the Laplacian on the face, scaled to FACE_SAMPLE_PX wide, full contrast. */
  minSharpness: 120,
  /** Warning outside these: mean brightness of the face. */
  minBrightness: 70,
  maxBrightness: 200,
  /** Warning above this: share of the face that is burnt out white. */
  maxClippedShare: 0.2,
} as const;

/** The face is sampled at this width for the sharpness and brightness measures. */
export const FACE_SAMPLE_PX = 256;

/**
 * The identity check (src/studio/identity.ts): two faces whose descriptors (dlib's ResNet face recognition
 * net, 150 px chips aligned by five landmarks of the face mesh) lie at most this far apart (Euclidean) show
 * the same person. Measured on the real photos of test/fixtures at 1024 px, as uploads are analysed
 * (identity.test.ts prints them, bench/identity.bench.ts prints the whole table):
 * - same person (five photos of one man, all 10 pairs): 0.19–0.46;
 * - different people: from 0.54 (two young women side by side in one group photo, each cut out alone),
 *   from 0.65 between the two portraits and the women, 0.68 between the portraits, 0.71–1.02 from the man
 *   to anyone else. (With the detector's box cropped square instead, as face-api does, the man's own pairs
 *   reached 0.56 and his distance to others began at 0.57: no margin. Alignment is what separates them.)
 * The limit sits between 0.46 and 0.54; dlib's own is 0.6, which would let the two women pass as one.
 */
export const IDENTITY = {
  maxSamePersonDistance: 0.5,
} as const;

/** The gate on generated pictures (output-gate.ts); its face, sharpness and identity limits are GATE's and IDENTITY's. */
export const OUTPUT_GATE = {
  /**
   * A generated head-and-shoulders picture is examined at this size on the long side: its face is still
   * over 250 px high (the sharpness sample is 256 px wide), and the descriptor's alignment is about twice as
   * fast as at 1024 px (measured: 125 ms against 268 ms per face).
   */
  analysisLongSidePx: 640,
} as const;
