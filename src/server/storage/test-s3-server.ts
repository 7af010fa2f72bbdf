// A real S3 API on localhost for tests: s3rver in a temp folder, behind a small proxy that demands
// Content-MD5 on DeleteObjects the way AWS documents it and older MinIO/Ceph enforce it (s3rver
// itself does not check). Test-only; nothing in the app imports this file.
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';

interface S3rverInstance {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
  httpServer?: http.Server;
}
type S3rverConstructor = new (options: {
  port: number;
  address: string;
  silent: boolean;
  directory: string;
  configureBuckets: { name: string }[];
}) => S3rverInstance;

// s3rver is CommonJS without type declarations; this is the slice of it we use.
const S3rver = createRequire(import.meta.url)('s3rver') as S3rverConstructor;

export interface TestS3Server {
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  createBucket(name: string): Promise<void>;
  stop(): Promise<void>;
}

function listen(server: http.Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

function closeServer(server: http.Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    // Keep-alive sockets from the SDK would otherwise hold close() open.
    server.closeAllConnections();
  });
}

function strictProxy(upstreamPort: number): http.Server {
  const agent = new http.Agent({ keepAlive: false });
  return http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const isDeleteObjects = req.method === 'POST' && /[?&]delete(=|&|$)/.test(req.url ?? '');
      const md5 = createHash('md5').update(body).digest('base64');
      if (isDeleteObjects && req.headers['content-md5'] !== md5) {
        res.writeHead(400, { 'content-type': 'application/xml' });
        res.end('<?xml version="1.0" encoding="UTF-8"?><Error><Code>MissingContentMD5</Code><Message>Missing required header for this request: Content-Md5.</Message></Error>');
        return;
      }
      const upstream = http.request(
        { host: '127.0.0.1', port: upstreamPort, method: req.method, path: req.url, headers: req.headers, agent },
        (upstreamRes) => {
          res.writeHead(upstreamRes.statusCode ?? 502, upstreamRes.headers);
          upstreamRes.pipe(res);
        },
      );
      upstream.on('error', (error) => res.destroy(error));
      upstream.end(body);
    });
  });
}

export async function startTestS3Server(): Promise<TestS3Server> {
  const directory = await mkdtemp(path.join(tmpdir(), 'shop-s3rver-'));
  const s3rver = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory, configureBuckets: [] });
  const { port: upstreamPort } = await s3rver.run();
  const proxy = strictProxy(upstreamPort);
  const port = await listen(proxy);
  // s3rver accepts exactly these credentials.
  const server = {
    endpoint: `http://127.0.0.1:${port}`,
    region: 'us-east-1',
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
  };
  const admin = new S3Client({
    region: server.region,
    endpoint: server.endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: server.accessKeyId, secretAccessKey: server.secretAccessKey },
  });
  let stopped = false;
  return {
    ...server,
    async createBucket(name) {
      await admin.send(new CreateBucketCommand({ Bucket: name }));
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      admin.destroy();
      await closeServer(proxy);
      if (s3rver.httpServer) await closeServer(s3rver.httpServer);
      await rm(directory, { recursive: true, force: true });
    },
  };
}
