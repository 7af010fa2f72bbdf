import type { StorageConfig } from '../config/storage.js';
import { createLocalStorage, type LocalStorage } from './local-storage.js';
import { createS3Storage, type S3Storage } from './s3-storage.js';

/**
 * Picks the driver named by the configuration; `secret` signs local links (unused by S3). The
 * result narrows on `driver`, so `storage.driver === 'local'` yields what localFilesRoutes needs.
 */
export function createStorage(
  config: StorageConfig,
  options: { secret: string; defaultTtlSeconds: number; baseUrl?: string },
): LocalStorage | S3Storage {
  switch (config.driver) {
    case 'local':
      return createLocalStorage({ dir: config.dir, secret: options.secret, defaultTtlSeconds: options.defaultTtlSeconds, baseUrl: options.baseUrl });
    case 's3':
      return createS3Storage({
        bucket: config.bucket,
        region: config.region,
        endpoint: config.endpoint,
        accessKeyId: config.accessKeyId,
        secretAccessKey: config.secretAccessKey,
        forcePathStyle: config.forcePathStyle,
        defaultTtlSeconds: options.defaultTtlSeconds,
      });
  }
}
