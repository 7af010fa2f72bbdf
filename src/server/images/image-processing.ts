// Decides whether uploaded bytes are an image we accept and re-encodes them (docs/rules.md §5).
// Pure: bytes in, bytes out; storage and the database are the caller's business.
import type decodeHeifType from 'heic-decode';
import sharp from 'sharp';
import type { Metadata, Sharp } from 'sharp';
import { UPLOAD_LIMITS } from '../../domain/catalog.js';
import { createSlots } from '../slots.js';

// Process-wide (sharp is one library per process, the studio's included): every photo is decoded for one
// request or job, so libvips' cache of recent operations (up to 50 MB and 100 of them) would only hold memory.
sharp.cache(false);

export type UploadRejection =
  | 'notAnImage'
  | 'corruptImage'
  | 'unsupportedType'
  | 'heicNotSupported'
  | 'fileTooLarge'
  | 'tooManyPixels'
  | 'resolutionTooLow';

/** 'heic': HEIC/HEIF from a phone camera (every iPhone's default), accepted as a customer photo only. */
export type SourceFormat = 'jpeg' | 'png' | 'webp' | 'heic';

export interface ProcessedImage {
  buffer: Buffer;
  mimeType: 'image/jpeg';
  extension: 'jpg';
  width: number;
  height: number;
  sourceFormat: SourceFormat;
  bytes: number;
}

export interface ProcessedCustomerPhoto extends ProcessedImage {
  /** A small JPEG (at most THUMBNAIL_PX on the long side) for the wizard and the back office. */
  thumbnail: Buffer;
}

export interface ProcessedResultImage extends Omit<ProcessedImage, 'mimeType' | 'extension'> {
  mimeType: 'image/jpeg' | 'image/png';
  extension: 'jpg' | 'png';
}

export type ProcessOutcome<T> = { ok: true; image: T } | { ok: false; code: UploadRejection };
export type ProcessResult = ProcessOutcome<ProcessedCustomerPhoto>;
export type ProcessResultImageResult = ProcessOutcome<ProcessedResultImage>;

/** Customer photos are only inputs for the studio; more than this wastes storage and time. */
export const MAX_STORED_LONG_SIDE_PX = 4000;
export const THUMBNAIL_PX = 480;

// libjpeg-turbo rather than mozjpeg: mozjpeg made a 12 MP photo ~15x slower (seconds per upload)
// for ~15 % fewer bytes, and these files are private working copies, not web assets.
// Without optimiseCoding: its second Huffman pass nearly doubled the encode time for ~5 % fewer bytes.
const JPEG_OUTPUT = { quality: 90, progressive: false, optimiseCoding: false } as const;

export type SniffResult = { kind: 'accepted'; format: SourceFormat } | { kind: 'rejected'; code: UploadRejection };

/**
 * What a customer photo's header says, without decoding it (a few milliseconds): the format, the size and
 * pixel limits and the minimum resolution. A photo that passes may still fail to decode in processCustomerPhoto.
 */
export async function inspectCustomerPhoto(input: Buffer): Promise<ProcessOutcome<{ format: SourceFormat }>> {
  const checked = await checkUpload(input, { heic: true });
  if (!checked.ok) return checked;
  const { format, metadata } = checked;
  const shortSide = Math.min(metadata.autoOrient.width, metadata.autoOrient.height);
  if (shortSide < UPLOAD_LIMITS.minShortSidePx) return { ok: false, code: 'resolutionTooLow' };
  return { ok: true, image: { format } };
}

export async function processCustomerPhoto(input: Buffer): Promise<ProcessResult> {
  const inspected = await inspectCustomerPhoto(input);
  if (!inspected.ok) return inspected;
  const { format } = inspected.image;
  if (format === 'heic') return processHeicPhoto(input);

  const [encoded, thumbnail] = await Promise.all([
    reencode(input, (image) =>
      image
        .resize({ width: MAX_STORED_LONG_SIDE_PX, height: MAX_STORED_LONG_SIDE_PX, fit: 'inside', withoutEnlargement: true })
        // JPEG has no alpha; white matches the backdrop of an application photo better than black.
        .flatten({ background: '#ffffff' })
        .jpeg(JPEG_OUTPUT),
    ),
    // A JPEG shrinks while it decodes (1/2 to 1/8 scale), so the thumbnail costs little beside the photo.
    reencode(input, (image) =>
      image.resize({ width: THUMBNAIL_PX, height: THUMBNAIL_PX, fit: 'inside' }).flatten({ background: '#ffffff' }).jpeg({ quality: 80 }),
      { slot: false },
    ),
  ]);
  if (!encoded || !thumbnail) return { ok: false, code: 'corruptImage' };
  return {
    ok: true,
    image: { ...encoded, thumbnail: thumbnail.buffer, mimeType: 'image/jpeg', extension: 'jpg', sourceFormat: format },
  };
}

/**
 * A HEIC photo: libheif (WebAssembly, from npm: sharp's prebuilt libvips decodes no HEVC) decodes the primary
 * image with its rotation and mirroring applied, to bare pixels; from there it is handled like every photo,
 * so nothing of the file's metadata (EXIF, GPS, depth maps, the other images of a burst) is kept.
 */
/**
 * libheif loads with the first HEIC photo, not with every process: its WebAssembly memory and code are about
 * 20 MB that a web process at rest, and every process that never sees a HEIC, does not need.
 */
let heifDecoder: Promise<typeof decodeHeifType> | null = null;
function loadHeifDecoder() {
  heifDecoder ??= import('heic-decode').then(
    (module) => module.default,
    (error: unknown) => {
      heifDecoder = null;
      throw error;
    },
  );
  return heifDecoder;
}

async function processHeicPhoto(input: Buffer): Promise<ProcessResult> {
  const decodeHeif = await loadHeifDecoder();
  const decoded = await withDecodeSlot(async () => {
    try {
      const image = await decodeHeif({ buffer: input });
      return { data: Buffer.from(image.data.buffer, image.data.byteOffset, image.data.byteLength), width: image.width, height: image.height };
    } catch {
      return undefined;
    }
  });
  if (!decoded) return { ok: false, code: 'corruptImage' };
  const raw = { raw: { width: decoded.width, height: decoded.height, channels: 4 as const } };
  try {
    const [photo, thumbnail] = await Promise.all([
      sharp(decoded.data, raw)
        .resize({ width: MAX_STORED_LONG_SIDE_PX, height: MAX_STORED_LONG_SIDE_PX, fit: 'inside', withoutEnlargement: true })
        .flatten({ background: '#ffffff' })
        .jpeg(JPEG_OUTPUT)
        .toBuffer({ resolveWithObject: true }),
      sharp(decoded.data, raw).resize({ width: THUMBNAIL_PX, height: THUMBNAIL_PX, fit: 'inside' }).flatten({ background: '#ffffff' }).jpeg({ quality: 80 }).toBuffer(),
    ]);
    return {
      ok: true,
      image: {
        buffer: photo.data,
        width: photo.info.width,
        height: photo.info.height,
        bytes: photo.data.length,
        thumbnail,
        mimeType: 'image/jpeg',
        extension: 'jpg',
        sourceFormat: 'heic',
      },
    };
  } catch {
    return { ok: false, code: 'corruptImage' };
  }
}

/**
 * Staff upload finished pictures: same checks, but no minimum size (small passport crops are
 * legitimate), no downscaling (we deliver exactly what staff made) and PNG stays PNG (transparency).
 */
export async function processResultImage(input: Buffer): Promise<ProcessResultImageResult> {
  const checked = await checkUpload(input);
  if (!checked.ok) return checked;
  const { format } = checked;
  const asPng = format === 'png';

  const encoded = await reencode(input, (image) =>
    asPng ? image.png() : image.flatten({ background: '#ffffff' }).jpeg(JPEG_OUTPUT),
  );
  if (!encoded) return { ok: false, code: 'corruptImage' };
  return {
    ok: true,
    image: {
      ...encoded,
      mimeType: asPng ? 'image/png' : 'image/jpeg',
      extension: asPng ? 'png' : 'jpg',
      sourceFormat: format,
    },
  };
}

/**
 * An image from outside the shop (a generator's output): refused or accepted by the same checks as an
 * upload (magic bytes, decoder agreement, size and pixel limits: no SVG, TIFF or HEIF reaches a decoder),
 * then decoded once, within the decode slots, and encoded by `finish`.
 */
export async function processForeignImage(input: Buffer, finish: (image: Sharp) => Sharp): Promise<ProcessOutcome<Encoded>> {
  const checked = await checkUpload(input);
  if (!checked.ok) return checked;
  const encoded = await reencode(input, finish);
  return encoded ? { ok: true, image: encoded } : { ok: false, code: 'corruptImage' };
}

type Checked = { ok: true; format: SourceFormat; metadata: Metadata } | { ok: false; code: UploadRejection };

/**
 * Everything that can be decided without decoding pixels, cheapest first. HEIC only where `heic` is set (a
 * customer's photo); a staff result or a generator's picture in HEIC is refused with its own code.
 */
async function checkUpload(input: Buffer, options: { heic?: boolean } = {}): Promise<Checked> {
  if (input.length === 0) return { ok: false, code: 'notAnImage' };
  // Before anything looks at the content, so an oversized body costs nothing but its length.
  if (input.length > UPLOAD_LIMITS.maxFileBytes) return { ok: false, code: 'fileTooLarge' };

  const sniffed = sniffImageType(input);
  if (sniffed.kind === 'rejected') return { ok: false, code: sniffed.code };
  if (sniffed.format === 'heic') return options.heic ? checkHeic(input) : { ok: false, code: 'heicNotSupported' };

  let metadata: Metadata;
  try {
    // Header only. The pixel limit is checked below, so that the limit gets its own code instead of
    // sharp's error (sharp refuses even to read the header of an image above limitInputPixels).
    metadata = await sharp(input, { limitInputPixels: false }).metadata();
  } catch {
    return { ok: false, code: 'corruptImage' };
  }
  // The magic bytes said one thing and the decoder another: not a file a camera or phone wrote.
  if (metadata.format !== sniffed.format) return { ok: false, code: 'corruptImage' };
  if (metadata.width * metadata.height > UPLOAD_LIMITS.maxPixels) return { ok: false, code: 'tooManyPixels' };
  return { ok: true, format: sniffed.format, metadata };
}

/** The HEIC's primary image size from its header (libheif reads it without decoding the pixels). */
async function checkHeic(input: Buffer): Promise<Checked> {
  const decodeHeif = await loadHeifDecoder();
  let size: { width: number; height: number };
  try {
    const images = await decodeHeif.all({ buffer: input });
    const primary = images[0];
    if (!primary) return { ok: false, code: 'corruptImage' };
    size = { width: primary.width, height: primary.height };
    images.dispose();
  } catch {
    return { ok: false, code: 'corruptImage' };
  }
  if (!(size.width > 0 && size.height > 0)) return { ok: false, code: 'corruptImage' };
  if (size.width * size.height > UPLOAD_LIMITS.maxPixels) return { ok: false, code: 'tooManyPixels' };
  // Rotation and mirroring are applied when it decodes: the size it reports is the upright one.
  return { ok: true, format: 'heic', metadata: { width: size.width, height: size.height, autoOrient: size } as Metadata };
}

export interface Encoded {
  buffer: Buffer;
  width: number;
  height: number;
  bytes: number;
}

/** Decodes fully, upright and in sRGB; returns undefined when the pixel data is damaged. */
async function reencode(input: Buffer, finish: (image: Sharp) => Sharp, options: { slot?: boolean } = {}): Promise<Encoded | undefined> {
  const run = async () => {
    const image = sharp(input, {
      // Already checked from the header; kept so that the decoder itself can never go past it.
      limitInputPixels: UPLOAD_LIMITS.maxPixels,
      // 'error' rejects truncated files (which would otherwise end in grey rows) and badly damaged
      // data, but tolerates the harmless warnings that some phone cameras' JPEGs trigger.
      failOn: 'error',
      sequentialRead: true,
      autoOrient: true,
    });
    try {
      // Without keepMetadata/keepExif sharp writes no EXIF, GPS, XMP, IPTC or ICC profile, and it
      // converts a P3/Adobe RGB/CMYK profile to sRGB before dropping it, so colours survive.
      const { data, info } = await finish(image).toBuffer({ resolveWithObject: true });
      return { buffer: data, width: info.width, height: info.height, bytes: data.length };
    } catch {
      return undefined;
    }
  };
  // The small thumbnail decode rides along with its photo's slot instead of queueing for one.
  return options.slot === false ? run() : withDecodeSlot(run);
}

// A decode holds the whole picture in memory (rotation needs all of it: ~150 MB at the 50 MP limit),
// so a burst of uploads must not decode all at once. sharp runs one libvips thread per image on
// glibc, so two slots keep both cores of the target machine busy: 10 phone photos (12 MP, 8 MB)
// take ~0.4-0.6 s of CPU each, ~2-3 s in all instead of 4-6 s with a single slot.
const MAX_PARALLEL_DECODES = 2;
const withDecodeSlot = createSlots(MAX_PARALLEL_DECODES);

const HEIF_BRANDS = new Set(['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'hevm', 'hevs', 'mif1', 'msf1', 'mif2', 'miaf']);
const AVIF_BRANDS = new Set(['avif', 'avis']);

/**
 * Classifies by magic bytes only. Formats we do not accept are recognised here and never reach a
 * decoder: SVG, TIFF, GIF and AVIF parsers are extra attack surface for files we would refuse anyway. HEIC is
 * decoded by libheif in WebAssembly, for customer photos only (checkUpload).
 */
export function sniffImageType(input: Buffer): SniffResult {
  const starts = (bytes: readonly number[], offset = 0): boolean =>
    input.length >= offset + bytes.length && bytes.every((byte, i) => input[offset + i] === byte);
  const ascii = (start: number, end: number): string => input.toString('latin1', start, end);

  if (starts([0xff, 0xd8, 0xff])) return { kind: 'accepted', format: 'jpeg' };
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return { kind: 'accepted', format: 'png' };
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return { kind: 'accepted', format: 'webp' };

  if (ascii(4, 8) === 'ftyp') return sniffIsoMedia(input);

  const unsupported: SniffResult = { kind: 'rejected', code: 'unsupportedType' };
  const header = ascii(0, 12);
  if (header.startsWith('GIF87a') || header.startsWith('GIF89a')) return unsupported;
  // TIFF and BigTIFF, both byte orders; camera raw files (DNG, NEF, ...) are TIFF too.
  if (['II*\0', 'MM\0*', 'II+\0', 'MM\0+'].some((magic) => header.startsWith(magic))) return unsupported;
  if (header.startsWith('8BPS')) return unsupported; // Photoshop
  if (starts([0x00, 0x00, 0x00, 0x0c, 0x6a, 0x50, 0x20, 0x20]) || starts([0xff, 0x4f, 0xff, 0x51])) {
    return unsupported; // JPEG 2000
  }
  if (starts([0x00, 0x00, 0x00, 0x0c, 0x4a, 0x58, 0x4c, 0x20]) || starts([0xff, 0x0a])) return unsupported; // JPEG XL
  if (header.startsWith('BM') && isBmpHeader(input)) return unsupported;
  if (looksLikeSvg(input)) return unsupported;
  return { kind: 'rejected', code: 'notAnImage' };
}

/** HEIC and AVIF share the HEIF container; the ftyp brands tell them apart. */
function sniffIsoMedia(input: Buffer): SniffResult {
  const boxSize = input.length >= 4 ? input.readUInt32BE(0) : 0;
  const end = Math.min(input.length, Math.max(boxSize, 16), 256);
  const brands = [input.toString('latin1', 8, 12)];
  for (let offset = 16; offset + 4 <= end; offset += 4) brands.push(input.toString('latin1', offset, offset + 4));

  if (brands.some((brand) => AVIF_BRANDS.has(brand))) return { kind: 'rejected', code: 'unsupportedType' };
  if (brands.some((brand) => HEIF_BRANDS.has(brand))) return { kind: 'accepted', format: 'heic' };
  // MP4, MOV and friends: a video is not a photo.
  return { kind: 'rejected', code: 'notAnImage' };
}

function isBmpHeader(input: Buffer): boolean {
  if (input.length < 18) return false;
  return [12, 40, 52, 56, 64, 108, 124].includes(input.readUInt32LE(14));
}

function looksLikeSvg(input: Buffer): boolean {
  const head = input.toString('utf8', 0, Math.min(input.length, 4096)).replace(/^\uFEFF/, '');
  // The root element must be <svg>; an HTML page that merely contains an inline SVG is not an image.
  return /^(?:\s+|<\?xml[^>]*>|<!--[\s\S]*?-->|<!DOCTYPE[^>]*>)*<svg[\s>]/i.test(head);
}
