// Test support for the studio's tests on real group photos (test/fixtures/faces/sample*.jpg).
import sharp from 'sharp';
import type { Inference } from '../inference/client.js';
import type { Box } from '../inference/types.js';
import { GATE } from '../thresholds.js';

/** Each face of a group photo cut out with room around it, like a single portrait a customer would send. */
export async function groupFaceCrops(file: string, inference: Pick<Inference, 'detectFaces'>): Promise<Buffer[]> {
  const meta = await sharp(file).metadata();
  const scale = Math.min(1, GATE.analysisLongSidePx / Math.max(meta.width!, meta.height!));
  const { data, info } = await sharp(file).resize(Math.round(meta.width! * scale), Math.round(meta.height! * scale)).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const faces = (await inference.detectFaces({ data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), width: info.width, height: info.height })).filter(
    (face) => face.score >= GATE.minFaceScore,
  );
  return Promise.all(
    faces.map((face) => {
      const cx = (face.box.x + face.box.width / 2) / scale;
      const cy = (face.box.y + face.box.height / 2) / scale;
      const half = (Math.max(face.box.width, face.box.height) / scale) * 0.8;
      const left = Math.max(0, Math.round(cx - half));
      const top = Math.max(0, Math.round(cy - half));
      const width = Math.min(meta.width! - left, Math.round(2 * half));
      const height = Math.min(meta.height! - top, Math.round(2 * half));
      return sharp(file).extract({ left, top, width, height }).jpeg({ quality: 90 }).toBuffer();
    }),
  );
}

/**
 * The customer's face in an image, in its pixels: in a crop of a group photo the one nearest the middle (the crop
 * is centred on the customer; a friend at the edge may be larger), among faces at least half the largest's
 * height; in a draft its one face.
 */
export async function customerFace(image: Buffer, inference: Pick<Inference, 'detectFaces'>): Promise<Box & { roll: number }> {
  const { data, info } = await sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const faces = await inference.detectFaces({ data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), width: info.width, height: info.height });
  const box = nearestMiddle(faces.map((face) => face.box), info.width, info.height);
  const customer = faces.find((face) => face.box === box);
  if (!customer) throw new Error('no face in the image');
  return { ...customer.box, roll: customer.roll };
}

/** Of these boxes, the one nearest the image's middle among those at least half the largest's height. */
export function nearestMiddle(boxes: readonly Box[], width: number, height: number): Box | undefined {
  const largest = Math.max(0, ...boxes.map((box) => box.height));
  const offCentre = (box: Box) => Math.hypot(box.x + box.width / 2 - width / 2, box.y + box.height / 2 - height / 2);
  return boxes.filter((box) => box.height >= largest / 2).sort((a, b) => offCentre(a) - offCentre(b))[0];
}
