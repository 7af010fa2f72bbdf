// Every limit of the quality gate in one place (tested in quality-gate.test.ts on real photos of several people
// and on the same photos made bad). Angles in radians, brightness 0–255, sizes as fractions of the image.
//
// Two levels: past a warning limit a photo is kept, with advice for the customer; past a refusal limit (the
// "usable" ones) it is refused and never stored. The measured ranges below are the gate's own, on the photos of
// test/fixtures as an upload arrives (quality-gate.test.ts prints them): the two portraits (astronaut 1200×1500,
// Hopper 1024 on the short side), the five photos of Franck (1280×1024) and 22 faces cut out of the group photos
// (sample*.jpg: web-sized, candid, several soft; one, in full profile, is not found again and is refused as
// faceless). The test makes the portraits and Franck bad with sharp (blur σ 1 and 4, light ×½, ×¼, ×2 and ×3,
// rotated 30°, 45° and 90°); the other steps, and the numbers in brackets (the group faces made bad the same
// way), were measured once with the same code. Blur σ is in pixels of the 256-px face sample (σ × face width /
// 256 in the photo), so it hurts every face alike.
// A yardstick of "beyond recognition" is how far a made-bad photo's descriptor moves from its own original
// (IDENTITY.maxSamePersonDistance is 0.5): blur σ 1: 0.07–0.11, σ 4: 0.32–0.43, σ 6: 0.38–0.56; light ×3:
// 0.45–0.64. Darkness moves it little (×¼: 0.17–0.26): a far too dark photo is refused for what the studio can
// make of it (noise and flat skin once brightened), not because the face is lost.

/** Roll (radians) below which the studio leaves a head as it is rather than turning the photo. */
export const LEVEL_MIN_ROLL = 0.05;

export const GATE = {
  /** Photos are examined at this size on the long side (faster, and the limits below do not depend on it). */
  analysisLongSidePx: 1024,
  /**
   * Faces are found on a copy this size on the long side: the detector works at 256 px, and its face mesh
   * still gets the smallest face without a warning (GATE.minFaceHeightRatio) at about 90 px. Measured on the
   * astronaut: box and angles the same as at 1024 px within 2 px and 0.01 rad, 31 ms instead of 53.
   */
  detectionLongSidePx: 640,
  /** A detection below this confidence is not a face. */
  minFaceScore: 0.5,
  /** A second face at least this large (relative to the main face's height) makes the photo refused. */
  otherFaceRelativeHeight: 0.45,
  /**
   * Warning above this: someone else at the photo's side. Of the rows beside the face (its top to the mouth),
   * the share where a person reaches the photo's side edge further out than 0.75 face widths from the face's
   * centre, on the side where it is largest, with the photo set level as the studio sets it. A customer's own
   * hair ends inside the photo and her shoulders begin below the mouth; a friend cropped away at the side
   * enters there. Measured: the portraits and five photos of Franck 0.000, turned 15° either way at most
   * 0.119, turned 30° (grey corners) at most 0.233, burnt out (light ×2) 0.200; party photos cropped until no
   * other face is found (1.8 face widths) 0.31–1.00, one whose friend shows only a glove below 0.000; faces
   * cut out of group photos (1.6 face widths) 0.15–1.00, most near 1.
   */
  maxOtherPersonAtSide: 0.28,
  /** Warning below this: the face's height as a part of the photo's height. */
  minFaceHeightRatio: 0.14,
  /** Warning below this: the face's height in pixels of the stored photo (too little detail). */
  minFaceHeightPx: 220,
  /** Warning above these: head turned sideways (yaw) or tilted up or down (pitch); about 26°. */
  maxYaw: 0.45,
  maxPitch: 0.45,
  /**
   * Roll: the head tilted towards a shoulder, or the camera held askew. Measured: the portraits and Franck
   * −9° to +6°; the candid group faces −30° to +45° (a woman with her head laid on one side: 45°). The
   * detector follows a rotation of the photo to within ~10°: rotated 30° the portraits and Franck read 20–36°,
   * 45° 35–48°, 90° 76–86°. The studio sets a tilt up to this limit level (render.ts turns the photo); above it
   * (34°, 0.6) the pose is taken as meant, and the customer is warned that the pictures will show it tilted.
   */
  maxRoll: 0.6,
  /**
   * Refused above 55° (0.96): beyond the ~45° a neck bends sideways, so a photo on its side (a phone held
   * sideways, an orientation lost on the way), upside down, or someone lying down: no framing makes that an
   * upright portrait. A real head tilt (45°, above) is only warned about, so rotations by 45° are warnings too.
   */
  maxUsableRoll: 0.96,
  /**
   * Variance of the Laplacian on the face, scaled to FACE_SAMPLE_PX wide, at full contrast. Measured: the
   * portraits and Franck 168–1174, the group faces 29–665 (web-sized and soft: most of them warned); blurred
   * σ 1: 41–249 (15–79), σ 2: 15–48 (9–25), σ 3: 10–20 (6–21), σ 4: 9–13 (5–18), σ 6: 8–11 (4–18).
   * What is left of a face blurred away is JPEG noise, 4–13; a dark face (brightness 47) keeps ~18 of noise after
   * the contrast stretch, so a dark blurred face is only warned about (its darkness may be refused on its own).
   * Warning below 120 (as before); refused below 15: from σ 3 on the eyes are a smear; the softest real face
   * (29) has twice that.
   */
  minSharpness: 120,
  minUsableSharpness: 15,
  /**
   * Mean brightness of the face. Measured: the portraits and Franck 109–133, the group faces 47–161; at ½ light
   * 54–66 (23–79), at ¼ 26–33 (11–39); at ×2 light 175–219, at ×3 191–240.
   * Warning outside 70–200 (as before). Refused below 40: between ¼ of a normal exposure (≤ 33) and the darkest
   * real face (47, a dim room); nothing but more light helps there. (No very dark skin among the fixtures: a
   * well-lit dark face should stay well above 40, but this limit is where to look first if one is refused.)
   * Refused above 230: almost nothing of the face below light grey (Franck at ×3: 237–240; at ×2 at most 219).
   */
  minBrightness: 70,
  maxBrightness: 200,
  minUsableBrightness: 40,
  maxUsableBrightness: 230,
  /**
   * Share of the face that is burnt out white (≥ 250). Measured: real photos 0–0.13; at ×1.5 light the
   * astronaut 0.39 (her light skin and backdrop), the others up to 0.09; at ×2 Hopper and Franck 0.13–0.28, the
   * astronaut 0.55; at ×3 Hopper 0.53, Franck 0.43–0.55 (the astronaut's face is not even found any more).
   * Warning above 0.2 (as before); refused above 0.45: about half the face white, its features gone. Franck at
   * ×3 is refused by his mean brightness (above) even where less than 0.45 of him is clipped.
   */
  maxClippedShare: 0.2,
  maxUsableClippedShare: 0.45,
} as const;

/** The face is sampled at this width for the sharpness and brightness measures. */
export const FACE_SAMPLE_PX = 256;

/**
 * The identity check (src/studio/identity.ts): two faces whose descriptors (dlib's ResNet face recognition
 * net, 150 px chips aligned by five landmarks of the face mesh) lie at most this far apart (Euclidean) show
 * the same person. Measured on the real photos of test/fixtures at 1024 px, as uploads are analysed
 * (identity.test.ts prints them, bench/identity.bench.ts prints the whole table):
 * - same person (five photos of one man, all 10 pairs): 0.17–0.46;
 * - different people: from 0.505 (two young women side by side in one group photo, each cut out alone; 0.512
 *   two women of another), 0.69 and more from the man to anyone else. (With the detector's box cropped square
 *   instead, as face-api does, the man's own pairs reached 0.56 and his distance to others began at 0.57: no
 *   margin. Alignment is what separates them.)
 * Each descriptor is the mean of the chip's and its mirror image's (docs/decisions/010: on 57 photos of 16 people
 * one person's photos came from up to 0.599 to up to 0.542 apart, different people stay from 0.568).
 * The limit sits between 0.46 and 0.505; dlib's own is 0.6, which would let the two women pass as one.
 */
export const IDENTITY = {
  maxSamePersonDistance: 0.5,
} as const;

/** The gate on generated pictures (output-gate.ts); its face, sharpness and identity limits are GATE's and IDENTITY's. */
export const OUTPUT_GATE = {
  /**
   * A generated head-and-shoulders picture is examined at this size on the long side: its face is still
   * over 250 px high (the sharpness sample is 256 px wide), and less is decoded and sent to the models.
   */
  analysisLongSidePx: 640,
} as const;
