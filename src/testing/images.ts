// Test images made from the public-domain portrait in test/fixtures, and a multipart body builder.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import sharp from 'sharp';
import { FIXTURES_DIR } from './project-root.js';

export const PORTRAIT = path.join(FIXTURES_DIR, 'portrait-astronaut.png');

const cache = new Map<string, Promise<Buffer>>();

/** The portrait scaled to the given size as JPEG (large enough for the upload minimum by default). */
export function portraitJpeg(width = 1200, height = 1500): Promise<Buffer> {
  const key = `${width}x${height}`;
  if (!cache.has(key)) cache.set(key, sharp(PORTRAIT).resize(width, height, { fit: 'cover' }).jpeg({ quality: 85 }).toBuffer());
  return cache.get(key)!;
}

/**
 * Photos of one man (test/fixtures/faces, five different frames), at a phone's size for the upload minimum.
 * The generator stand-ins answer with his other frames first (01829, 02221): a different photo of him.
 */
export const FRANCK_FRAMES = ['03979', '04117', '02683', '01829', '02221'];

export function franckJpeg(index: number): Promise<Buffer> {
  const frame = FRANCK_FRAMES[index % FRANCK_FRAMES.length]!;
  const key = `franck-${frame}`;
  if (!cache.has(key)) cache.set(key, sharp(path.join(FIXTURES_DIR, `faces/franck_${frame}.jpg`)).resize(1280, 1024).jpeg({ quality: 90 }).toBuffer());
  return cache.get(key)!;
}

/** A fixture photo (path under test/fixtures) as a phone delivers it: at least 1280 px on both sides, JPEG. */
export function phoneJpeg(file: string): Promise<Buffer> {
  return sharp(path.join(FIXTURES_DIR, file)).resize({ width: 1280, height: 1280, fit: 'outside' }).jpeg({ quality: 90 }).toBuffer();
}

export function multipart(file: { buffer: Buffer; fileName: string; contentType: string }, field = 'file'): { body: Buffer; contentType: string } {
  const boundary = `----shoptest${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${file.fileName}"\r\nContent-Type: ${file.contentType}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { body: Buffer.concat([head, file.buffer, tail]), contentType: `multipart/form-data; boundary=${boundary}` };
}
