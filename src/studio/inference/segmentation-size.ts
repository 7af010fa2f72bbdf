/** The person-segmentation model takes and returns this square (256 × 256). */
export const SEGMENTATION_SIZE = 256;
