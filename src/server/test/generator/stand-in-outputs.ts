// What the test stand-ins of the generators answer with: real photographs from test/fixtures, chosen per
// test. Test-only; nothing in the app imports it.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { PROJECT_ROOT } from '../../paths.js';

/**
 * `same-person`: other photos of the man in test/fixtures/faces/franck_*.jpg; `other-person`: Grace Hopper and
 * Eileen Collins; `no-face`: a crop of the blue backdrop beside him; `not-an-image`: SVG markup sent as PNG;
 * `self-check-face`: the generator self-check's face (Eileen Collins) mirrored and framed anew, at 1024 × 1280, as
 * an identity-preserving model answers the self-check.
 */
export type StandInOutput = 'same-person' | 'other-person' | 'no-face' | 'not-an-image' | 'self-check-face';

export interface StandInFile {
  body: Buffer;
  contentType: string;
  extension: string;
  /** A real picture (false: the bytes are not an image, whatever the type says). */
  image: boolean;
}

const FIXTURES = path.join(PROJECT_ROOT, 'test/fixtures');
const FRANCK = ['franck_01829.jpg', 'franck_02221.jpg', 'franck_02683.jpg', 'franck_03979.jpg', 'franck_04117.jpg'];
/** The model's "same person" answers: his two frames the test customers never upload (they send the other three, FRANCK_FRAMES in src/testing/images.ts), so every answer is a different photo of him. */
const ANSWERS = ['franck_01829.jpg', 'franck_02221.jpg'];
const cache = new Map<string, Promise<StandInFile>>();

async function load(kind: StandInOutput, index: number): Promise<StandInFile> {
  switch (kind) {
    case 'same-person':
      return { body: await asGenerated(path.join(FIXTURES, 'faces', ANSWERS[index % ANSWERS.length]!), 'jpeg', { width: 720 }), contentType: 'image/jpeg', extension: 'jpg', image: true };
    case 'other-person':
      return index % 2 === 0
        ? { body: await readFile(path.join(FIXTURES, 'portrait-hopper.jpg')), contentType: 'image/jpeg', extension: 'jpg', image: true }
        : { body: await readFile(path.join(FIXTURES, 'portrait-astronaut.png')), contentType: 'image/png', extension: 'png', image: true };
    case 'no-face':
      // The top right of the 720×576 frame is his blue backdrop, nothing else.
      return { body: await sharp(path.join(FIXTURES, 'faces', FRANCK[index % FRANCK.length]!)).extract({ left: 580, top: 0, width: 140, height: 200 }).resize(560, 800).png().toBuffer(), contentType: 'image/png', extension: 'png', image: true };
    case 'self-check-face':
      return { body: await asGenerated(path.join(FIXTURES, 'portrait-astronaut.png'), 'png', { width: 1024, mirrored: true }), contentType: 'image/png', extension: 'png', image: true };
    case 'not-an-image':
      return { body: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), contentType: 'image/png', extension: 'png', image: false };
  }
}

/**
 * A photo as a portrait model delivers one: 1024 × 1280, the head with room around it (as the prompts ask), the
 * photo's edges carried on around it (sharp's extend `copy`). The fixtures are a video's close-up 5:4 frames (his
 * face fills them) and a square portrait; cut to 4:5 they are tighter than the studio would frame
 * (output-formats.ts tooTightFor), which a model answering "a professional headshot" is not.
 */
async function asGenerated(file: string, as: 'jpeg' | 'png', options: { width: number; mirrored?: boolean }): Promise<Buffer> {
  const photo = sharp(file).resize({ width: options.width });
  const { info, data } = await (options.mirrored ? photo.flop() : photo).toBuffer({ resolveWithObject: true });
  const [wide, high] = [Math.max(0, 1024 - info.width), Math.max(0, 1280 - info.height)];
  // Its own pipeline: sharp resizes before it extends, whatever the order of the calls.
  const room = await sharp(data)
    .extend({ top: Math.floor(high / 2), bottom: Math.ceil(high / 2), left: Math.floor(wide / 2), right: Math.ceil(wide / 2), extendWith: 'copy' })
    .png()
    .toBuffer();
  const extended = sharp(room).resize(1024, 1280, { fit: 'cover' });
  return as === 'png' ? extended.png().toBuffer() : extended.jpeg({ quality: 92 }).toBuffer();
}

/** The file as the predictor saves it in the format it was asked for (`output_format`): a real image is converted. */
export async function inFormat(file: StandInFile, format: 'png' | 'jpg' | 'webp' | null): Promise<StandInFile> {
  if (!format || format === file.extension || !file.image) return file;
  const body = await sharp(file.body).toFormat(format === 'jpg' ? 'jpeg' : format).toBuffer();
  return { body, contentType: format === 'jpg' ? 'image/jpeg' : `image/${format}`, extension: format, image: true };
}

export function standInFile(kind: StandInOutput, index: number): Promise<StandInFile> {
  const key = `${kind}:${kind === 'not-an-image' ? 0 : index % 5}`;
  if (!cache.has(key)) cache.set(key, load(kind, index));
  return cache.get(key)!;
}

/** Where a stand-in delivers a webhook: a real HTTP call, or straight into the app under test (inject). */
export type WebhookDelivery = (url: string, headers: Record<string, string>, body: string) => Promise<number>;

export const httpDelivery: WebhookDelivery = async (url, headers, body) => (await fetch(url, { method: 'POST', headers, body })).status;

/** Where a stand-in PUTs an output file (Cog's --upload-url): the status and the answer's Location. */
export type UploadDelivery = (url: string, headers: Record<string, string>, body: Buffer) => Promise<{ status: number; location: string | null }>;

export const httpUpload: UploadDelivery = async (url, headers, body) => {
  const response = await fetch(url, { method: 'PUT', headers, body: new Uint8Array(body) });
  return { status: response.status, location: response.headers.get('location') };
};
