// Customer photos of nine different people, made from the public-domain and sample photographs in
// test/fixtures: two studio portraits, one man in front of a blue screen (upscaled, as a phone delivers small
// photos), and six women cropped out of group photos the way a customer crops a party photo, so friends'
// faces, shoulders and hands remain at the edges. The studio must keep only the one person.
import path from 'node:path';
import sharp from 'sharp';
import { FIXTURES_DIR } from './project-root.js';

export interface PersonPhoto {
  name: string;
  /** JPEG, at least 1500 px high, one person in the middle (others may show at the edges). */
  photo: Buffer;
  /** Other people visible in the photo (their faces at least partly inside it). */
  neighbours: boolean;
}

/** Face boxes of the group photos (x, y, size) as the studio's detector finds them at full size. */
const GROUP_CROPS: { file: string; face: [number, number, number] }[] = [
  { file: 'sample3', face: [997, 189, 367] },
  { file: 'sample6', face: [584, 304, 384] },
  { file: 'sample1', face: [333, 316, 352] },
  { file: 'sample4', face: [916, 155, 330] },
  { file: 'sample5', face: [1048, 171, 319] },
  { file: 'sample2', face: [802, 191, 353] },
];

const faces = (file: string) => path.join(FIXTURES_DIR, 'faces', `${file}.jpg`);

async function groupCrop(file: string, [x, y, size]: [number, number, number], faceWidths = 2.6): Promise<Buffer> {
  const meta = await sharp(faces(file)).metadata();
  const width = Math.min(meta.width!, Math.round(size * faceWidths));
  const height = Math.min(meta.height!, Math.round(width * 1.25));
  const left = Math.max(0, Math.min(meta.width! - width, Math.round(x + size / 2 - width / 2)));
  const top = Math.max(0, Math.min(meta.height! - height, Math.round(y - size * 0.45)));
  return sharp(faces(file)).extract({ left, top, width, height }).resize({ height: 1500 }).jpeg({ quality: 90 }).toBuffer();
}

let corpus: Promise<PersonPhoto[]> | null = null;

export function peopleCorpus(): Promise<PersonPhoto[]> {
  corpus ??= (async () => [
    { name: 'astronaut', photo: await sharp(path.join(FIXTURES_DIR, 'portrait-astronaut.png')).resize(1200, 1500, { fit: 'cover' }).jpeg({ quality: 90 }).toBuffer(), neighbours: false },
    { name: 'hopper', photo: await sharp(path.join(FIXTURES_DIR, 'portrait-hopper.jpg')).resize({ height: 1500 }).jpeg({ quality: 90 }).toBuffer(), neighbours: false },
    { name: 'franck', photo: await sharp(faces('franck_03979')).resize({ height: 1500 }).jpeg({ quality: 90 }).toBuffer(), neighbours: false },
    ...(await Promise.all(GROUP_CROPS.map(async ({ file, face }) => ({ name: file, photo: await groupCrop(file, face), neighbours: true })))),
  ])();
  return corpus;
}

/**
 * Tighter crops of the same group photos (1.8 face widths), as a customer cuts a party photo until the upload
 * gate finds no other face: friends' hair, a half face or a hand still enter at the photo's sides.
 */
export function tightGroupCrop(file: string): Promise<Buffer> {
  const crop = GROUP_CROPS.find((entry) => entry.file === file);
  if (!crop) throw new Error(`no group photo ${file}`);
  return groupCrop(file, crop.face, 1.8);
}
