// Where the shop keeps its data: the database (embedded PGlite, or PostgreSQL with DATABASE_URL) and the files
// (a local folder, or an S3 bucket with S3_BUCKET).
import path from 'node:path';
import { z } from 'zod';
import { bool, optionalString, url } from './fields.js';

export const storageEnv = z.object({
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, { error: 'must be a postgres:// URL' })
    .optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
  S3_BUCKET: optionalString,
  S3_REGION: z.string().default('eu-central-1'),
  S3_ENDPOINT: url.optional(),
  S3_ACCESS_KEY_ID: optionalString,
  S3_SECRET_ACCESS_KEY: optionalString,
  S3_FORCE_PATH_STYLE: bool.default(false),
});
type StorageEnv = z.output<typeof storageEnv>;

export type DatabaseConfig = { kind: 'postgres'; url: string; poolSize: number } | { kind: 'pglite'; dataDir: string };

export type StorageConfig =
  | { driver: 'local'; dir: string }
  | {
      driver: 's3';
      bucket: string;
      region: string;
      endpoint: string | undefined;
      accessKeyId: string | undefined;
      secretAccessKey: string | undefined;
      forcePathStyle: boolean;
    };

export function storageConfig(env: StorageEnv, dataDir: string, problems: string[]): StorageConfig {
  let storage: StorageConfig = { driver: 'local', dir: path.join(dataDir, 'files') };
  if (env.S3_BUCKET) {
    storage = {
      driver: 's3',
      bucket: env.S3_BUCKET,
      region: env.S3_REGION,
      endpoint: env.S3_ENDPOINT,
      accessKeyId: env.S3_ACCESS_KEY_ID,
      secretAccessKey: env.S3_SECRET_ACCESS_KEY,
      forcePathStyle: env.S3_FORCE_PATH_STYLE,
    };
    if (Boolean(env.S3_ACCESS_KEY_ID) !== Boolean(env.S3_SECRET_ACCESS_KEY)) {
      problems.push('S3_ACCESS_KEY_ID / S3_SECRET_ACCESS_KEY: set both or neither');
    }
  }
  return storage;
}

export function databaseConfig(env: StorageEnv, dataDir: string): DatabaseConfig {
  return env.DATABASE_URL ? { kind: 'postgres', url: env.DATABASE_URL, poolSize: env.DATABASE_POOL_SIZE } : { kind: 'pglite', dataDir: path.join(dataDir, 'db') };
}
