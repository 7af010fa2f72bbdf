// Files in a private folder on this machine, for development and single-server installs. Links are
// HMAC-signed paths served by local-files-routes.ts, so the folder itself is never public.
//
// Layout under `dir`: each key is a file at its own path; its content type sits beside it in
// `<file>#meta.json`. `#` is outside the key alphabet and `.tmp/` starts with a dot, which no key
// segment may, so neither can ever collide with a key.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { constants } from 'node:fs';
import { access, mkdir, open, readdir, readFile, rename, rm, rmdir, stat, unlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import {
  assertValidKey,
  assertValidPrefix,
  isValidKey,
  StorageNotFoundError,
  type SignedUrlOptions,
  type Storage,
  type StoredObjectInfo,
} from './storage.js';

export interface LocalStorageOptions {
  dir: string;
  secret: string;
  defaultTtlSeconds: number;
  /** Prepended to signed links, e.g. the public URL; without it links are relative (`/files/...`). */
  baseUrl?: string;
}

export interface LocalStorage extends Storage {
  readonly driver: 'local';
  readonly dir: string;
  /** Body and metadata from one open file handle, so the file route serves one consistent version. */
  open(key: string): Promise<StoredObjectInfo & { stream: Readable }>;
}

export type LocalSignatureVerdict = 'valid' | 'linkExpired' | 'linkInvalid';

const META_SUFFIX = '#meta.json';
const TMP_DIR = '.tmp';
const FALLBACK_CONTENT_TYPE = 'application/octet-stream';

function errorCode(error: unknown): string | undefined {
  return error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}

// A path that is not there, or that runs through a file, or that is a folder: no such object.
const MISSING = new Set(['ENOENT', 'ENOTDIR', 'EISDIR']);
function isMissing(error: unknown): boolean {
  return MISSING.has(errorCode(error) ?? '');
}

/** The HMAC over key, expiry and download name; JSON keeps the three fields unambiguous. */
export function signLocalFile(input: { secret: string; key: string; exp: number | string; name: string | undefined }): string {
  const payload = JSON.stringify(['files-v1', input.key, String(input.exp), input.name || '']);
  return createHmac('sha256', input.secret).update(payload).digest('hex');
}

export function verifyLocalSignature(input: {
  secret: string;
  key: string;
  exp: string | number | undefined;
  name: string | undefined;
  sig: string | undefined;
  now?: Date;
}): LocalSignatureVerdict {
  const exp = String(input.exp ?? '');
  if (!/^[0-9]{1,12}$/.test(exp) || !/^[0-9a-f]{64}$/.test(input.sig ?? '')) return 'linkInvalid';
  const expected = Buffer.from(signLocalFile({ secret: input.secret, key: input.key, exp, name: input.name }), 'hex');
  if (!timingSafeEqual(expected, Buffer.from(input.sig ?? '', 'hex'))) return 'linkInvalid';
  // Checked after the signature so that a forged expiry reads as tampering, not as an old link.
  const now = input.now ?? new Date();
  return Number(exp) * 1000 <= now.getTime() ? 'linkExpired' : 'valid';
}

export function createLocalStorage(options: LocalStorageOptions): LocalStorage {
  if (!options.secret) throw new Error('createLocalStorage: a secret is required to sign links');
  const root = path.resolve(options.dir);
  const tmpDir = path.join(root, TMP_DIR);
  const baseUrl = (options.baseUrl ?? '').replace(/\/+$/, '');

  function fileFor(key: string): string {
    assertValidKey(key);
    const file = path.join(root, ...key.split('/'));
    // The key pattern already excludes `..`; this is the second lock on the same door.
    if (!file.startsWith(root + path.sep)) throw new TypeError(`Invalid storage key ${JSON.stringify(key)}`);
    return file;
  }

  /** Writes the buffers in order, also when the system writes only part of them at once. */
  async function writeAll(handle: FileHandle, buffers: Buffer[], total: number): Promise<void> {
    const { bytesWritten } = await handle.writev(buffers);
    if (bytesWritten < total) await handle.writeFile(Buffer.concat(buffers).subarray(bytesWritten));
  }

  /**
   * How much of a streamed body is gathered before it is written. Every file call is handed to libuv's thread
   * pool, which on a small virtual machine costs the event loop about 0.2 ms a call: a phone photo of 2.7 MB in
   * three writes, not eleven.
   */
  const WRITE_BATCH_BYTES = 1024 * 1024;

  /** Opens a new temporary file; the temporary folder is made only when it is missing (one call fewer per write). */
  async function openTemporary(file: string): Promise<FileHandle> {
    try {
      return await open(file, 'wx', 0o600);
    } catch (error) {
      if (!isMissing(error)) throw error;
      await mkdir(tmpDir, { recursive: true, mode: 0o700 });
      return open(file, 'wx', 0o600);
    }
  }

  async function writeSynced(file: string, body: Buffer | Readable): Promise<void> {
    const handle = await openTemporary(file);
    try {
      if (Buffer.isBuffer(body)) {
        await handle.writeFile(body);
      } else {
        // A network body arrives in chunks of a few KB: written in batches, not one write per chunk.
        let batch: Buffer[] = [];
        let batched = 0;
        for await (const chunk of body) {
          const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
          batch.push(bytes);
          batched += bytes.length;
          if (batched >= WRITE_BATCH_BYTES) {
            await writeAll(handle, batch, batched);
            batch = [];
            batched = 0;
          }
        }
        if (batch.length) await writeAll(handle, batch, batched);
      }
      // Without fsync a power cut after the rename can leave an empty file under the real key.
      await handle.sync();
    } finally {
      await handle.close();
    }
  }

  async function readContentType(file: string): Promise<string> {
    try {
      const meta: unknown = JSON.parse(await readFile(file + META_SUFFIX, 'utf8'));
      if (meta && typeof meta === 'object' && 'contentType' in meta && typeof meta.contentType === 'string') {
        return meta.contentType;
      }
    } catch (error) {
      if (!isMissing(error)) throw error;
    }
    return FALLBACK_CONTENT_TYPE;
  }

  async function openFile(key: string): Promise<{ handle: FileHandle; file: string; size: number }> {
    const file = fileFor(key);
    let handle: FileHandle;
    try {
      handle = await open(file, 'r');
    } catch (error) {
      if (isMissing(error)) throw new StorageNotFoundError(key);
      throw error;
    }
    try {
      const stats = await handle.stat();
      if (!stats.isFile()) throw new StorageNotFoundError(key);
      return { handle, file, size: stats.size };
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  /** Removes folders left empty by a delete, up to (not including) the root. */
  async function pruneEmptyDirs(fromDir: string): Promise<void> {
    let dir = fromDir;
    while (dir.startsWith(root + path.sep)) {
      try {
        await rmdir(dir);
      } catch {
        return; // not empty (or already gone): everything above is not empty either
      }
      dir = path.dirname(dir);
    }
  }

  async function unlinkIfPresent(file: string): Promise<boolean> {
    try {
      await unlink(file);
      return true;
    } catch (error) {
      if (isMissing(error)) return false;
      // macOS says EPERM, not EISDIR, when the path is a folder of other keys.
      if (errorCode(error) === 'EPERM' && (await stat(file).catch(() => null))?.isDirectory()) return false;
      throw error;
    }
  }

  async function walk(dir: string, relative: string, out: string[]): Promise<void> {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (error) {
      if (isMissing(error)) return;
      throw error;
    }
    for (const entry of entries) {
      if (entry.name.startsWith('.') || entry.name.includes('#')) continue;
      const key = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) await walk(path.join(dir, entry.name), key, out);
      else if (entry.isFile()) out.push(key);
    }
  }

  async function listKeys(prefix: string): Promise<string[]> {
    assertValidPrefix(prefix, { allowEmpty: true });
    // Only the folder named by the prefix's complete segments can hold matching keys.
    const base = prefix.slice(0, prefix.lastIndexOf('/') + 1).replace(/\/$/, '');
    const keys: string[] = [];
    await walk(base ? path.join(root, ...base.split('/')) : root, base, keys);
    // Files someone copied in by hand under names that are not keys stay invisible.
    return keys.filter((key) => key.startsWith(prefix) && isValidKey(key)).sort();
  }

  async function openObject(key: string): Promise<StoredObjectInfo & { stream: Readable }> {
    const { handle, file, size } = await openFile(key);
    try {
      const contentType = await readContentType(file);
      return { stream: handle.createReadStream(), contentType, size };
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  async function deleteKey(key: string): Promise<boolean> {
    const file = fileFor(key);
    const deleted = await unlinkIfPresent(file);
    await unlinkIfPresent(file + META_SUFFIX);
    return deleted;
  }

  return {
    driver: 'local',
    dir: root,

    async put(key, body, { contentType }) {
      const file = fileFor(key);
      const id = randomBytes(12).toString('hex');
      const tmpData = path.join(tmpDir, `${id}.data`);
      const tmpMeta = path.join(tmpDir, `${id}.meta`);
      // The fallback type needs no meta file (a file without one is served as that): a photo as sent costs one
      // file and one fsync, not two.
      const withMeta = contentType !== FALLBACK_CONTENT_TYPE;
      try {
        await writeSynced(tmpData, body);
        if (withMeta) await writeSynced(tmpMeta, Buffer.from(JSON.stringify({ contentType })));
        // The target folder is made when the move finds it missing (most writes go to a folder that exists: one
        // call fewer). A concurrent delete may prune the (momentarily empty) folder between mkdir and rename; the
        // temp files are complete, so trying again is safe.
        for (let attempt = 1; ; attempt++) {
          if (attempt > 1) await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
          try {
            // Meta first: a crash in between leaves no data under the key, never data without meta. Without a
            // meta file of its own, a key written before with another type loses that type first.
            if (withMeta) await rename(tmpMeta, file + META_SUFFIX);
            else await unlinkIfPresent(file + META_SUFFIX);
            await rename(tmpData, file);
            break;
          } catch (error) {
            if (errorCode(error) !== 'ENOENT' || attempt >= 4) throw error;
          }
        }
      } catch (error) {
        // Renamed files are gone from the temporary folder; what is left there goes.
        await rm(tmpData, { force: true });
        if (withMeta) await rm(tmpMeta, { force: true });
        throw error;
      }
    },

    open: openObject,

    async sweepTemporary(olderThanMs) {
      let names: string[];
      try {
        names = await readdir(tmpDir);
      } catch (error) {
        if (isMissing(error)) return 0;
        throw error;
      }
      const cutoff = Date.now() - olderThanMs;
      let removed = 0;
      for (const name of names) {
        const file = path.join(tmpDir, name);
        const info = await stat(file).catch(() => null);
        // A write under way is younger than the cutoff; one this old was cut off by a crash.
        if (!info?.isFile() || info.mtimeMs > cutoff) continue;
        await rm(file, { force: true });
        removed++;
      }
      return removed;
    },

    async getStream(key) {
      const { stream } = await openObject(key);
      return stream;
    },

    async getBuffer(key) {
      const { handle } = await openFile(key);
      try {
        return await handle.readFile();
      } finally {
        await handle.close();
      }
    },

    async head(key) {
      const { handle, file, size } = await openFile(key);
      try {
        return { contentType: await readContentType(file), size };
      } finally {
        await handle.close();
      }
    },

    async exists(key) {
      const file = fileFor(key);
      try {
        return (await stat(file)).isFile();
      } catch (error) {
        if (isMissing(error)) return false;
        throw error;
      }
    },

    async delete(key) {
      await deleteKey(key);
      await pruneEmptyDirs(path.dirname(fileFor(key)));
    },

    async deletePrefix(prefix) {
      assertValidPrefix(prefix, { allowEmpty: false });
      const keys = await listKeys(prefix);
      let count = 0;
      for (const key of keys) {
        if (await deleteKey(key)) count++;
      }
      const dirs = new Set(keys.map((key) => path.dirname(fileFor(key))));
      // Deepest first, so a parent is tried only after its children are gone.
      for (const dir of [...dirs].sort((a, b) => b.length - a.length)) await pruneEmptyDirs(dir);
      return count;
    },

    listKeys,

    async signedUrl(key, signOptions: SignedUrlOptions = {}) {
      assertValidKey(key);
      const ttl = signOptions.expiresInSeconds ?? options.defaultTtlSeconds;
      if (!Number.isInteger(ttl) || ttl <= 0) throw new RangeError(`signedUrl: expiresInSeconds must be a positive integer, got ${ttl}`);
      const exp = Math.floor(Date.now() / 1000) + ttl;
      const name = signOptions.downloadName || undefined;
      const sig = signLocalFile({ secret: options.secret, key, exp, name });
      const nameParam = name === undefined ? '' : `&name=${encodeURIComponent(name)}`;
      // Key characters are all URL-safe, so the key goes into the path as it is.
      return `${baseUrl}/files/${key}?exp=${exp}&sig=${sig}${nameParam}`;
    },

    async ping() {
      await mkdir(root, { recursive: true, mode: 0o700 });
      await access(root, constants.R_OK | constants.W_OK);
    },
  };
}
