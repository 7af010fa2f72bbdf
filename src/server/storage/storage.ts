// One interface for the private file store (customer selfies, generated photos, downloads).
// Implementations: local-storage.ts (a folder, signed links served by the app) and s3-storage.ts.
import type { Readable } from 'node:stream';

export interface SignedUrlOptions {
  expiresInSeconds?: number;
  /** Makes the link a download (`Content-Disposition: attachment`) saved under this name; otherwise inline. */
  downloadName?: string;
}

export interface StoredObjectInfo {
  contentType: string;
  size: number;
}

export interface Storage {
  readonly driver: 'local' | 's3';
  put(key: string, body: Buffer | Readable, options: { contentType: string }): Promise<void>;
  /** Throws StorageNotFoundError if the key does not exist. */
  getStream(key: string): Promise<Readable>;
  /** Throws StorageNotFoundError if the key does not exist. */
  getBuffer(key: string): Promise<Buffer>;
  /** Content type and size without reading the body; throws StorageNotFoundError if missing. */
  head(key: string): Promise<StoredObjectInfo>;
  exists(key: string): Promise<boolean>;
  /** Idempotent: deleting a missing key is not an error. */
  delete(key: string): Promise<void>;
  /** Deletes every key that starts with `prefix` (plain string prefix, as in S3) and returns how many. */
  deletePrefix(prefix: string): Promise<number>;
  /** Keys starting with `prefix`, sorted. */
  listKeys(prefix: string): Promise<string[]>;
  signedUrl(key: string, options?: SignedUrlOptions): Promise<string>;
  /** Throws if the backend is unreachable (GET /api/health). */
  ping(): Promise<void>;
  /**
   * Removes what interrupted writes left behind that no key points to (the local driver's temporary files
   * older than `olderThanMs`); returns how many. S3 keeps nothing of a failed PutObject.
   */
  sweepTemporary(olderThanMs: number): Promise<number>;
}

export class StorageNotFoundError extends Error {
  readonly code = 'storageNotFound';
  constructor(readonly key: string) {
    super(`Storage object not found: ${key}`);
    this.name = 'StorageNotFoundError';
  }
}

export const MAX_KEY_LENGTH = 512;

// Lowercase only: keys map to file names, and case-insensitive file systems (macOS, Windows)
// would otherwise fold two keys into one file. A segment may not start with a dot, which rules
// out `.` and `..` and leaves room for the local driver's own bookkeeping files.
const SEGMENT = '[a-z0-9_-][a-z0-9._-]*';
const KEY_PATTERN = new RegExp(`^${SEGMENT}(?:/${SEGMENT})*$`);
const PREFIX_PATTERN = new RegExp(`^(?:${SEGMENT}/)*(?:[a-z0-9_-][a-z0-9._-]*)?$`);

export function isValidKey(key: string): boolean {
  return typeof key === 'string' && key.length > 0 && key.length <= MAX_KEY_LENGTH && KEY_PATTERN.test(key);
}

/** Keys look like `uploads/<uuid>/<random>.jpg`; anything else is a programming error. */
export function assertValidKey(key: string): void {
  if (!isValidKey(key)) {
    throw new TypeError(`Invalid storage key ${JSON.stringify(key)}: use lowercase [a-z0-9._-] segments separated by "/"`);
  }
}

/**
 * A prefix is a key's beginning: whole segments ending in "/", optionally followed by the start
 * of a segment. The empty prefix (everything) is refused where it would be destructive.
 */
export function assertValidPrefix(prefix: string, options: { allowEmpty: boolean }): void {
  const valid =
    typeof prefix === 'string' &&
    prefix.length <= MAX_KEY_LENGTH &&
    (prefix.length > 0 || options.allowEmpty) &&
    PREFIX_PATTERN.test(prefix);
  if (!valid) throw new TypeError(`Invalid storage prefix ${JSON.stringify(prefix)}`);
}

// RFC 5987 attr-char: encodeURIComponent leaves these unescaped but filename* must not.
function encodeRfc5987(value: string): string {
  return encodeURIComponent(value).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** Strips what no file name should carry: control characters and path separators. */
export function sanitizeDownloadName(name: string): string {
  // eslint-disable-next-line no-control-regex
  const cleaned = name.replace(/[\u0000-\u001f\u007f]/g, '').replace(/[/\\]/g, '_').trim();
  return cleaned.slice(0, 200) || 'download';
}

/**
 * `inline`, or `attachment` with an ASCII `filename` for old clients and a UTF-8 `filename*`
 * (RFC 6266) that modern browsers prefer, so "Bewerbungsfoto Müller.jpg" survives.
 */
export function contentDisposition(downloadName: string | undefined): string {
  if (downloadName === undefined || downloadName === '') return 'inline';
  const name = sanitizeDownloadName(downloadName);
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  if (ascii === name) return `attachment; filename="${ascii}"`;
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeRfc5987(name)}`;
}
