// Files in an S3 bucket (AWS or an S3-compatible service such as MinIO, Ceph, R2, Hetzner).
// Links are presigned GetObject URLs, so downloads go straight to the bucket.
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { DeleteObjectsCommand, S3Client } from '@aws-sdk/client-s3';
import { assertValidKey, assertValidPrefix, contentDisposition, StorageNotFoundError, type Storage } from './storage.js';

export interface S3StorageOptions {
  bucket: string;
  region: string;
  endpoint?: string | undefined;
  /** Both or neither; without them the SDK's default chain (environment, instance role) applies. */
  accessKeyId?: string | undefined;
  secretAccessKey?: string | undefined;
  forcePathStyle: boolean;
  defaultTtlSeconds: number;
}

export interface S3Storage extends Storage {
  readonly driver: 's3';
  readonly bucket: string;
}

const PING_TIMEOUT_MS = 5_000;
// S3 caps presigned URLs at seven days.
const MAX_PRESIGN_SECONDS = 7 * 24 * 3600;
const DELETE_BATCH = 1000;

/**
 * The AWS SDK loads with the first S3 request, not with every process: its code and source text are about
 * 10 MB that a process without S3 configured never needs, and one with S3 needs from its first request on
 * (issue 22). Cached; tried again after a failed load, whose error reaches the caller.
 */
interface S3Sdk {
  sdk: typeof import('@aws-sdk/client-s3');
  getSignedUrl: typeof import('@aws-sdk/s3-request-presigner').getSignedUrl;
}
let s3Sdk: Promise<S3Sdk> | null = null;
function loadS3Sdk(): Promise<S3Sdk> {
  s3Sdk ??= Promise.all([import('@aws-sdk/client-s3'), import('@aws-sdk/s3-request-presigner')]).then(
    ([sdk, presigner]) => ({ sdk, getSignedUrl: presigner.getSignedUrl }),
    (error: unknown) => {
      s3Sdk = null;
      throw error;
    },
  );
  return s3Sdk;
}

function isNotFound(error: unknown): boolean {
  // GetObject answers NoSuchKey; HeadObject has no body, so the SDK can only say NotFound.
  return error instanceof Error && (error.name === 'NoSuchKey' || error.name === 'NotFound');
}

async function toBuffer(body: Buffer | Readable): Promise<Buffer> {
  if (Buffer.isBuffer(body)) return body;
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

/**
 * SDK >= 3.729 sends CRC32 instead of Content-MD5 on DeleteObjects, which older MinIO, Ceph and
 * other S3-compatible servers refuse ("Missing required header: Content-MD5"). AWS accepts MD5 too,
 * so we always send it (aws-sdk-js-v3 supplemental-docs/MD5_FALLBACK.md).
 */
function withContentMd5(command: DeleteObjectsCommand): DeleteObjectsCommand {
  command.middlewareStack.add(
    (next) => async (args) => {
      const request = args.request as { headers?: Record<string, string>; body?: unknown };
      if (request.headers && (typeof request.body === 'string' || request.body instanceof Uint8Array)) {
        for (const header of Object.keys(request.headers)) {
          const lower = header.toLowerCase();
          if (lower.startsWith('x-amz-checksum-') || lower.startsWith('x-amz-sdk-checksum-')) delete request.headers[header];
        }
        request.headers['content-md5'] = createHash('md5').update(request.body).digest('base64');
      }
      return next(args);
    },
    // Low priority runs after the SDK's own checksum middleware in the same step, before signing.
    { step: 'build', priority: 'low', name: 'contentMd5ForDeleteObjects' },
  );
  return command;
}

export function createS3Storage(options: S3StorageOptions): S3Storage {
  const { bucket } = options;
  if (Boolean(options.accessKeyId) !== Boolean(options.secretAccessKey)) {
    throw new Error('createS3Storage: set both accessKeyId and secretAccessKey, or neither');
  }
  // The client is made with the first request (loadS3Sdk).
  let connection: Promise<S3Sdk & { client: S3Client }> | null = null;
  function s3() {
    connection ??= loadS3Sdk()
      .then(({ sdk, getSignedUrl }) => {
        const client = new sdk.S3Client({
          region: options.region,
          endpoint: options.endpoint,
          forcePathStyle: options.forcePathStyle,
          credentials:
            options.accessKeyId && options.secretAccessKey
              ? { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey }
              : undefined,
          // The default CRC checksums (SDK >= 3.729) are refused by many S3-compatible servers.
          requestChecksumCalculation: 'WHEN_REQUIRED',
          responseChecksumValidation: 'WHEN_REQUIRED',
        });
        return { sdk, getSignedUrl, client };
      })
      .catch((error: unknown) => {
        connection = null;
        throw error;
      });
    return connection;
  }

  async function getObject(key: string) {
    assertValidKey(key);
    const { sdk, client } = await s3();
    try {
      const { Body } = await client.send(new sdk.GetObjectCommand({ Bucket: bucket, Key: key }));
      if (!(Body instanceof Readable)) throw new Error('S3 GetObject returned no Node.js stream');
      return Body;
    } catch (error) {
      if (isNotFound(error)) throw new StorageNotFoundError(key);
      throw error;
    }
  }

  async function head(key: string) {
    assertValidKey(key);
    const { sdk, client } = await s3();
    try {
      const out = await client.send(new sdk.HeadObjectCommand({ Bucket: bucket, Key: key }));
      return { contentType: out.ContentType ?? 'application/octet-stream', size: out.ContentLength ?? 0 };
    } catch (error) {
      if (isNotFound(error)) throw new StorageNotFoundError(key);
      throw error;
    }
  }

  async function listKeys(prefix: string): Promise<string[]> {
    assertValidPrefix(prefix, { allowEmpty: true });
    const { sdk, client } = await s3();
    const keys: string[] = [];
    let ContinuationToken: string | undefined;
    do {
      const page = await client.send(new sdk.ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken }));
      for (const object of page.Contents ?? []) if (object.Key) keys.push(object.Key);
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
    return keys.sort();
  }

  return {
    driver: 's3',
    bucket,

    async put(key, body, { contentType }) {
      assertValidKey(key);
      // PutObject needs the length up front, and multipart upload (@aws-sdk/lib-storage) is not a
      // dependency; our objects are photos of a few MB with the upload size capped by the route,
      // so reading a stream into memory first is the simple, portable choice.
      const bytes = await toBuffer(body);
      const { sdk, client } = await s3();
      await client.send(
        new sdk.PutObjectCommand({ Bucket: bucket, Key: key, Body: bytes, ContentType: contentType, ContentLength: bytes.length }),
      );
    },

    getStream: getObject,

    async getBuffer(key) {
      return toBuffer(await getObject(key));
    },

    head,

    async exists(key) {
      try {
        await head(key);
        return true;
      } catch (error) {
        if (error instanceof StorageNotFoundError) return false;
        throw error;
      }
    },

    async delete(key) {
      assertValidKey(key);
      const { sdk, client } = await s3();
      await client.send(new sdk.DeleteObjectCommand({ Bucket: bucket, Key: key }));
    },

    async deletePrefix(prefix) {
      assertValidPrefix(prefix, { allowEmpty: false });
      const keys = await listKeys(prefix);
      const { sdk, client } = await s3();
      for (let i = 0; i < keys.length; i += DELETE_BATCH) {
        const batch = keys.slice(i, i + DELETE_BATCH);
        const out = await client.send(
          withContentMd5(
            new sdk.DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true } }),
          ),
        );
        const failed = out.Errors ?? [];
        if (failed.length) {
          const first = failed[0];
          throw new Error(`S3 DeleteObjects failed for ${failed.length} key(s), first ${first?.Key}: ${first?.Code} ${first?.Message}`);
        }
      }
      return keys.length;
    },

    listKeys,

    async signedUrl(key, signOptions = {}) {
      assertValidKey(key);
      const ttl = signOptions.expiresInSeconds ?? options.defaultTtlSeconds;
      if (!Number.isInteger(ttl) || ttl <= 0 || ttl > MAX_PRESIGN_SECONDS) {
        throw new RangeError(`signedUrl: expiresInSeconds must be an integer from 1 to ${MAX_PRESIGN_SECONDS}, got ${ttl}`);
      }
      const { sdk, client, getSignedUrl } = await s3();
      const command = new sdk.GetObjectCommand({
        Bucket: bucket,
        Key: key,
        ResponseContentDisposition: signOptions.downloadName ? contentDisposition(signOptions.downloadName) : undefined,
      });
      return getSignedUrl(client, command, { expiresIn: ttl });
    },

    async ping() {
      const { sdk, client } = await s3();
      await client.send(new sdk.HeadBucketCommand({ Bucket: bucket }), { abortSignal: AbortSignal.timeout(PING_TIMEOUT_MS) });
    },

    // One PutObject per file: an interrupted one stores nothing.
    async sweepTemporary() {
      return 0;
    },
  };
}
