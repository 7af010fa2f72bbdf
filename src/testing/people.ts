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

/** Face boxes (x, y, size) of the people the selfies are cut around, in their photographs' own pixels, as the detector finds them. */
const SELFIES: { name: string; file: string; face: [number, number, number]; share: number }[] = [
  { name: 'astronaut', file: 'portrait-astronaut.png', face: [152, 49, 145], share: 0.6 },
  { name: 'hopper', file: 'portrait-hopper.jpg', face: [119, 89, 284], share: 0.55 },
  { name: 'sample3', file: 'faces/sample3.jpg', face: [997, 189, 367], share: 0.6 },
  { name: 'sample6', file: 'faces/sample6.jpg', face: [584, 304, 384], share: 0.7 },
  { name: 'sample1', file: 'faces/sample1.jpg', face: [333, 316, 352], share: 0.5 },
  { name: 'sample4', file: 'faces/sample4.jpg', face: [916, 155, 330], share: 0.65 },
  { name: 'sample5', file: 'faces/sample5.jpg', face: [1048, 171, 319], share: 0.55 },
  { name: 'sample2', file: 'faces/sample2.jpg', face: [802, 191, 353], share: 0.6 },
  { name: 'sample3-right', file: 'faces/sample3.jpg', face: [1359, 251, 409], share: 0.6 },
  { name: 'sample6-right', file: 'faces/sample6.jpg', face: [1402, 236, 377], share: 0.6 },
];

let selfies: Promise<PersonPhoto[]> | null = null;

/**
 * Phone selfies of ten different people, cut from the same photographs the way customers send them: upright 3:4,
 * the face filling 50 to 70 % of the photo's height (`share`), a little room above the hair, the shoulders cut by
 * the photo's bottom and sides, and in the party photos a friend's hair, face or shoulder at the side. Scaled to a
 * phone's 1500 px height. Franck's own frames (test/fixtures/faces) are selfies already (his face fills 78 %).
 */
export function selfieCorpus(): Promise<PersonPhoto[]> {
  selfies ??= Promise.all(
    SELFIES.map(async ({ name, file, face: [x, y, size], share }) => {
      const source = path.join(FIXTURES_DIR, file);
      const meta = await sharp(source).metadata();
      const height = Math.min(meta.height!, Math.round(size / share));
      const width = Math.min(meta.width!, Math.round(height * 0.75));
      const left = Math.max(0, Math.min(meta.width! - width, Math.round(x + size / 2 - width / 2)));
      const top = Math.max(0, Math.min(meta.height! - height, Math.round(y - size * 0.28)));
      const photo = await sharp(source).extract({ left, top, width, height }).resize({ height: 1500 }).removeAlpha().jpeg({ quality: 90 }).toBuffer();
      return { name: `${name}-selfie`, photo, neighbours: file.includes('sample') };
    }),
  );
  return selfies;
}
