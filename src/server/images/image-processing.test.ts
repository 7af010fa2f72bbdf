import { readFileSync } from 'node:fs';
import path from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { expect, test } from 'vitest';
import { UPLOAD_LIMITS } from '../../domain/catalog.js';
import { PROJECT_ROOT } from '../paths.js';
import { processCustomerPhoto, processResultImage, type ProcessResult } from './image-processing.js';

const PORTRAIT = readFileSync(path.join(PROJECT_ROOT, 'test/fixtures/portrait-astronaut.png'));

/** The 512×512 fixture stretched to a size a phone camera would deliver. */
function portrait(width = 1200, height = 1500) {
  return sharp(PORTRAIT).resize(width, height, { fit: 'fill' });
}

function accepted(result: ProcessResult) {
  if (!result.ok) throw new Error(`expected acceptance, got ${result.code}`);
  return result.image;
}

async function pixelAt(image: Buffer, x: number, y: number): Promise<number[]> {
  const { data, info } = await sharp(image).raw().toBuffer({ resolveWithObject: true });
  const offset = (y * info.width + x) * info.channels;
  return [...data.subarray(offset, offset + 3)];
}

function pngChunk(type: string, data: Buffer): Buffer {
  const typeAndData = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData));
  return Buffer.concat([length, typeAndData, crc]);
}

/** A valid one-colour 1-bit greyscale PNG; 10000×10000 compresses to a few kB. */
function handMadePng(width: number, height: number, idat?: Buffer): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([1, 0, 0, 0, 0], 8); // bit depth 1, greyscale, deflate, no filter, no interlace
  const row = Buffer.alloc(1 + Math.ceil(width / 8)); // filter byte 0, then black pixels
  const pixels = idat ?? deflateSync(Buffer.concat(Array.from({ length: height }, () => row)), { level: 9 });
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', pixels),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** What an iPhone writes: an ISO-BMFF file whose ftyp box names the HEIC brands. */
function handMadeHeic(): Buffer {
  const ftyp = Buffer.concat([
    Buffer.from([0, 0, 0, 24]),
    Buffer.from('ftypheic', 'latin1'),
    Buffer.from([0, 0, 0, 0]),
    Buffer.from('mif1heic', 'latin1'),
  ]);
  const meta = Buffer.concat([Buffer.from([0, 0, 0, 12]), Buffer.from('meta', 'latin1'), Buffer.alloc(4)]);
  return Buffer.concat([ftyp, meta, Buffer.alloc(2048, 0x42)]);
}

test('a JPEG photo is accepted and re-encoded as JPEG at its own size', async () => {
  const image = accepted(await processCustomerPhoto(await portrait().jpeg().toBuffer()));
  expect(image).toMatchObject({ mimeType: 'image/jpeg', extension: 'jpg', width: 1200, height: 1500, sourceFormat: 'jpeg' });
  expect(image.bytes).toBe(image.buffer.length);
  const metadata = await sharp(image.buffer).metadata();
  expect([metadata.format, metadata.width, metadata.height]).toEqual(['jpeg', 1200, 1500]);
});

test('a PNG photo is accepted and stored as JPEG', async () => {
  const image = accepted(await processCustomerPhoto(await portrait().png().toBuffer()));
  expect(image).toMatchObject({ mimeType: 'image/jpeg', width: 1200, height: 1500, sourceFormat: 'png' });
  expect((await sharp(image.buffer).metadata()).format).toBe('jpeg');
});

test('a WebP photo is accepted and stored as JPEG', async () => {
  const image = accepted(await processCustomerPhoto(await portrait().webp().toBuffer()));
  expect(image).toMatchObject({ mimeType: 'image/jpeg', width: 1200, height: 1500, sourceFormat: 'webp' });
  expect((await sharp(image.buffer).metadata()).format).toBe('jpeg');
});

test('a phone JPEG with EXIF orientation 6 comes out upright and without EXIF, GPS or XMP', async () => {
  // Stored sideways as 1500×1200 with a red mark in the stored top-left corner, as a phone held
  // upright writes it; orientation 6 means "rotate 90° clockwise to view".
  const mark = await sharp({ create: { width: 100, height: 100, channels: 3, background: '#ff0000' } }).png().toBuffer();
  const input = await portrait(1500, 1200)
    .composite([{ input: mark, left: 0, top: 0 }])
    .jpeg()
    .withMetadata({ orientation: 6 })
    .withExifMerge({
      IFD0: { Make: 'Phone', Model: 'Selfie 3000', Artist: 'Erika Mustermann' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '52/1 31/1 0/1', GPSLongitudeRef: 'E', GPSLongitude: '13/1 24/1 0/1', GPSMapDatum: 'WGS-84' },
    })
    .withXmp('<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"/></x:xmpmeta>')
    .toBuffer();
  const before = await sharp(input).metadata();
  expect(before.orientation).toBe(6);
  expect(before.exif?.includes('Erika Mustermann')).toBe(true);
  expect(before.exif?.includes('WGS-84')).toBe(true); // proves the GPS directory was written
  expect(before.xmp).toBeDefined();

  const image = accepted(await processCustomerPhoto(input));
  expect([image.width, image.height]).toEqual([1200, 1500]);
  const after = await sharp(image.buffer).metadata();
  expect([after.width, after.height]).toEqual([1200, 1500]);
  expect(after.exif).toBeUndefined();
  expect(after.orientation).toBeUndefined();
  expect(after.xmp).toBeUndefined();
  expect(after.iptc).toBeUndefined();
  expect(after.icc).toBeUndefined();
  expect(image.buffer.includes('Erika Mustermann')).toBe(false);
  expect(image.buffer.includes('WGS-84')).toBe(false);
  // Rotated clockwise, the stored top-left corner is now the top-right one.
  const [r, g, b] = await pixelAt(image.buffer, 1200 - 20, 20);
  expect(r).toBeGreaterThan(200);
  expect(g).toBeLessThan(60);
  expect(b).toBeLessThan(60);
});

test('a Display P3 photo is converted to sRGB rather than losing its colours with the profile', async () => {
  // sRGB (40,200,60) is stored as roughly (97,197,81) in P3 numbers.
  const input = await portrait()
    .composite([{ input: { create: { width: 1200, height: 1500, channels: 3, background: { r: 40, g: 200, b: 60 } } } }])
    .withIccProfile('p3')
    .png()
    .toBuffer();
  const image = accepted(await processCustomerPhoto(input));
  expect((await sharp(image.buffer).metadata()).hasProfile).toBe(false);
  const [r, g, b] = await pixelAt(image.buffer, 600, 750);
  expect(r).toBeLessThan(55);
  expect(g).toBeGreaterThan(185);
  expect(b).toBeLessThan(75);
});

test('a transparent PNG is flattened onto white', async () => {
  const input = await sharp({ create: { width: 1200, height: 1500, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
    .png()
    .toBuffer();
  const image = accepted(await processCustomerPhoto(input));
  expect(await pixelAt(image.buffer, 10, 10)).toEqual([255, 255, 255]);
});

test('a photo longer than 4000 px is scaled down to 4000 px on its long side', async () => {
  const image = accepted(await processCustomerPhoto(await portrait(1100, 4400).jpeg().toBuffer()));
  expect([image.width, image.height]).toEqual([1000, 4000]);
});

test('a text file sent as a JPEG is not an image', async () => {
  const input = Buffer.from('name,email\nErika,erika@example.com\n'.repeat(100));
  expect(await processCustomerPhoto(input)).toEqual({ ok: false, code: 'notAnImage' });
});

test('random bytes are not an image', async () => {
  const input = Buffer.from(Array.from({ length: 50_000 }, (_, i) => (i * 7919 + 13) % 251));
  expect(await processCustomerPhoto(input)).toEqual({ ok: false, code: 'notAnImage' });
});

test('an empty file is not an image', async () => {
  expect(await processCustomerPhoto(Buffer.alloc(0))).toEqual({ ok: false, code: 'notAnImage' });
});

test('a JPEG cut in half is corrupt, not accepted with grey rows', async () => {
  const jpeg = await portrait().jpeg().toBuffer();
  const input = jpeg.subarray(0, Math.floor(jpeg.length / 2));
  expect(await processCustomerPhoto(input)).toEqual({ ok: false, code: 'corruptImage' });
});

test('a JPEG missing only its last bytes is corrupt', async () => {
  const jpeg = await portrait().jpeg().toBuffer();
  expect(await processCustomerPhoto(jpeg.subarray(0, jpeg.length - 200))).toEqual({ ok: false, code: 'corruptImage' });
});

test('a truncated PNG is corrupt', async () => {
  const png = await portrait().png().toBuffer();
  const input = png.subarray(0, Math.floor(png.length * 0.8));
  expect(await processCustomerPhoto(input)).toEqual({ ok: false, code: 'corruptImage' });
});

test('JPEG magic bytes followed by garbage are a corrupt image', async () => {
  const input = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(5000, 0x37)]);
  expect(await processCustomerPhoto(input)).toEqual({ ok: false, code: 'corruptImage' });
});

test('a file of exactly the size limit is accepted and one byte more is too large', async () => {
  const jpeg = await portrait().jpeg().toBuffer();
  // Bytes after the JPEG end marker are ignored by decoders, so padding keeps the image valid.
  const atLimit = Buffer.concat([jpeg, Buffer.alloc(UPLOAD_LIMITS.maxFileBytes - jpeg.length)]);
  expect((await processCustomerPhoto(atLimit)).ok).toBe(true);
  const overLimit = Buffer.concat([atLimit, Buffer.alloc(1)]);
  expect(await processCustomerPhoto(overLimit)).toEqual({ ok: false, code: 'fileTooLarge' });
});

test('an 11 MB upload is too large whatever it contains', async () => {
  const input = Buffer.alloc(11 * 1024 * 1024, 0x41);
  expect(await processCustomerPhoto(input)).toEqual({ ok: false, code: 'fileTooLarge' });
});

test('a few-kB PNG of 10000×10000 pixels is refused for its pixel count', async () => {
  const input = handMadePng(10_000, 10_000);
  expect(input.length).toBeLessThan(50_000);
  expect(await sharp(input).metadata()).toMatchObject({ format: 'png', width: 10_000, height: 10_000 });
  // That it is judged from the header, without decoding 100 MP, the next test shows (no timing asserted).
  expect(await processCustomerPhoto(input)).toEqual({ ok: false, code: 'tooManyPixels' });
});

test('the pixel limit is judged from the header, before any pixel data is read', async () => {
  // Pixel data that could not be decoded: only a header-first check can answer tooManyPixels.
  const input = handMadePng(10_000, 10_000, Buffer.from('not deflate data'));
  expect(await processCustomerPhoto(input)).toEqual({ ok: false, code: 'tooManyPixels' });
  expect(await processResultImage(input)).toEqual({ ok: false, code: 'tooManyPixels' });
});

test('just over the pixel limit is refused', async () => {
  const side = Math.ceil(Math.sqrt(UPLOAD_LIMITS.maxPixels)) + 1;
  expect(await processCustomerPhoto(handMadePng(side, side))).toEqual({ ok: false, code: 'tooManyPixels' });
});

test('an SVG is an unsupported type', async () => {
  const input = Buffer.from(
    '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="2000" height="2000"><rect width="2000" height="2000"/></svg>',
  );
  expect(await processCustomerPhoto(input)).toEqual({ ok: false, code: 'unsupportedType' });
});

test('an HTML page with an inline SVG is not an image', async () => {
  const input = Buffer.from('<!doctype html><html><body><svg xmlns="http://www.w3.org/2000/svg"></svg></body></html>');
  expect(await processCustomerPhoto(input)).toEqual({ ok: false, code: 'notAnImage' });
});

test('a GIF is an unsupported type', async () => {
  // Small, because GIF quantisation of a photo-sized image takes seconds.
  const input = await sharp(PORTRAIT).resize(64, 64).gif().toBuffer();
  expect(await processCustomerPhoto(input)).toEqual({ ok: false, code: 'unsupportedType' });
});

test('a TIFF is an unsupported type', async () => {
  const input = await portrait().tiff().toBuffer();
  expect(await processCustomerPhoto(input)).toEqual({ ok: false, code: 'unsupportedType' });
});

test('an AVIF is an unsupported type, not a HEIC', async () => {
  const input = await sharp(PORTRAIT).resize(64, 64).avif({ effort: 0 }).toBuffer();
  expect(input.toString('latin1', 4, 12)).toBe('ftypavif');
  expect(await processCustomerPhoto(input)).toEqual({ ok: false, code: 'unsupportedType' });
});

test('an iPhone HEIC is accepted like every photo: decoded, re-encoded as JPEG, its metadata gone', async () => {
  // Made with libheif's heif-enc from a frame of Franck carrying camera EXIF and a GPS position (test/fixtures/README.md).
  const heic = readFileSync(path.join(PROJECT_ROOT, 'test/fixtures/faces/franck_04117.heic'));
  expect(heic.toString('latin1', 4, 12)).toBe('ftypheic');
  expect(heic.includes('iPhone 15')).toBe(true);
  const image = accepted(await processCustomerPhoto(heic));
  expect(image).toMatchObject({ mimeType: 'image/jpeg', extension: 'jpg', width: 1280, height: 1024, sourceFormat: 'heic' });
  const metadata = await sharp(image.buffer).metadata();
  expect({ format: metadata.format, exif: metadata.exif, icc: metadata.icc, xmp: metadata.xmp }).toEqual({ format: 'jpeg', exif: undefined, icc: undefined, xmp: undefined });
  expect(image.buffer.includes('iPhone')).toBe(false);
  // The same picture as the JPEG it was made from (HEVC at quality 60 against JPEG: close, not equal).
  const original = await sharp(path.join(PROJECT_ROOT, 'test/fixtures/faces/franck_04117.jpg')).resize(1280, 1024).raw().toBuffer();
  const decoded = await sharp(image.buffer).raw().toBuffer();
  let difference = 0;
  for (let i = 0; i < decoded.length; i++) difference += Math.abs(decoded[i]! - original[i]!);
  expect(difference / decoded.length).toBeLessThan(6);
  expect((await sharp(image.thumbnail).metadata()).width).toBeLessThanOrEqual(480);
});

test('a file that only claims to be a HEIC is a damaged image, and staff results and generated pictures stay JPEG or PNG', async () => {
  expect(await processCustomerPhoto(handMadeHeic())).toEqual({ ok: false, code: 'corruptImage' });
  const heic = readFileSync(path.join(PROJECT_ROOT, 'test/fixtures/faces/franck_04117.heic'));
  expect(await processCustomerPhoto(heic.subarray(0, heic.length / 2))).toEqual({ ok: false, code: 'corruptImage' });
  expect(await processResultImage(heic)).toEqual({ ok: false, code: 'heicNotSupported' });
});

test('a photo whose short side is below the minimum is refused', async () => {
  expect(await processCustomerPhoto(PORTRAIT)).toEqual({ ok: false, code: 'resolutionTooLow' });
});

test('the minimum short side is accepted and one pixel less is refused, whichever side is short', async () => {
  const min = UPLOAD_LIMITS.minShortSidePx;
  expect((await processCustomerPhoto(await portrait(min, 1400).jpeg().toBuffer())).ok).toBe(true);
  expect(await processCustomerPhoto(await portrait(min - 1, 1400).jpeg().toBuffer())).toEqual({
    ok: false,
    code: 'resolutionTooLow',
  });
  expect(await processCustomerPhoto(await portrait(1400, min - 1).jpeg().toBuffer())).toEqual({
    ok: false,
    code: 'resolutionTooLow',
  });
});

test('a result PNG stays PNG, keeps its transparency and may be small', async () => {
  const input = await sharp(PORTRAIT).ensureAlpha(0.5).png().toBuffer();
  const result = await processResultImage(input);
  if (!result.ok) throw new Error(result.code);
  expect(result.image).toMatchObject({ mimeType: 'image/png', extension: 'png', width: 512, height: 512, sourceFormat: 'png' });
  const metadata = await sharp(result.image.buffer).metadata();
  expect([metadata.format, metadata.hasAlpha]).toEqual(['png', true]);
});

test('a result JPEG or WebP is stored as JPEG', async () => {
  for (const input of [await sharp(PORTRAIT).jpeg().toBuffer(), await sharp(PORTRAIT).webp().toBuffer()]) {
    const result = await processResultImage(input);
    if (!result.ok) throw new Error(result.code);
    expect(result.image).toMatchObject({ mimeType: 'image/jpeg', extension: 'jpg', width: 512, height: 512 });
    expect((await sharp(result.image.buffer).metadata()).format).toBe('jpeg');
  }
});

test('result uploads get the same decoding checks', async () => {
  const jpeg = await sharp(PORTRAIT).jpeg().toBuffer();
  expect(await processResultImage(jpeg.subarray(0, jpeg.length / 2))).toEqual({ ok: false, code: 'corruptImage' });
  expect(await processResultImage(handMadeHeic())).toEqual({ ok: false, code: 'heicNotSupported' });
  expect(await processResultImage(Buffer.from('hello'))).toEqual({ ok: false, code: 'notAnImage' });
});

test('a burst of uploads, some of them broken, all get their answer', async () => {
  const jpeg = await portrait().jpeg().toBuffer();
  const broken = jpeg.subarray(0, jpeg.length / 2);
  const inputs = [jpeg, broken, jpeg, broken, jpeg, broken, jpeg];
  const results = await Promise.all(inputs.map((input) => processCustomerPhoto(input)));
  expect(results.map((result) => (result.ok ? 'ok' : result.code))).toEqual([
    'ok',
    'corruptImage',
    'ok',
    'corruptImage',
    'ok',
    'corruptImage',
    'ok',
  ]);
});

test('a process that decodes photos keeps no libvips cache of them (each photo is decoded once; a cache only holds memory)', async () => {
  await processCustomerPhoto(await sharp({ create: { width: 1200, height: 1600, channels: 3, background: '#808080' } }).jpeg().toBuffer());
  const cache = sharp.cache();
  expect(cache.memory.max).toBe(0);
  expect(cache.items.max).toBe(0);
});
