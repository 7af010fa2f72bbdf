// The Fastify instance and the HTTP layer every answer passes through: logging without personal data, request
// ids, timeouts, our error shape, security headers and compression.
import { randomUUID } from 'node:crypto';
import { constants as zlibConstants } from 'node:zlib';
import compress from '@fastify/compress';
import helmet from '@fastify/helmet';
import Fastify, { type FastifyInstance } from 'fastify';
import type { AppOverrides } from './app-types.js';
import type { AppConfig } from './config.js';
import { loggableError } from './db/errors.js';
import { clientErrorHandler, frameworkErrorHandler, registerErrorHandling } from './http/error-handler.js';
import { registerBodyTimeouts } from './http/timeouts.js';
import { zodSerializerCompiler, zodValidatorCompiler } from './http/zod-provider.js';

/**
 * Logs carry no personal data: errors without query parameters (db/errors.ts), requests without query
 * values (status tokens, download signatures and e-mail addresses travel in query strings).
 */
export const logSerializers = {
  err: loggableError,
  req(request: { method: string; url: string; hostname?: string; ip?: string; socket?: { remotePort?: number } }) {
    const [pathname, query] = request.url.split('?', 2) as [string, string | undefined];
    const keys = query ? [...new URLSearchParams(query).keys()].map((key) => `${key.slice(0, 40)}=…`) : [];
    return {
      method: request.method,
      url: keys.length ? `${pathname.slice(0, 300)}?${keys.join('&')}` : pathname.slice(0, 300),
      host: request.hostname,
      remoteAddress: request.ip,
    };
  },
};

export function contentSecurityPolicy(config: AppConfig): Record<string, string[]> {
  const imgSources = ["'self'", 'data:', 'blob:'];
  if (config.storage.driver === 's3') {
    // Presigned links point at the bucket's host.
    imgSources.push(
      config.storage.endpoint ? new URL(config.storage.endpoint).origin : `https://${config.storage.bucket}.s3.${config.storage.region}.amazonaws.com`,
    );
  }
  for (const pair of config.examples) {
    for (const image of [pair.before, pair.after]) if (image.src.startsWith('https://')) imgSources.push(new URL(image.src).origin);
  }
  // Analytics and chat (only when configured) load after consent; their scripts talk to their own origin.
  const thirdParty = [config.consentServices.analytics, config.consentServices.chat].flatMap((s) => (s ? [new URL(s.scriptUrl).origin] : []));
  return {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'", ...thirdParty],
    styleSrc: ["'self'"],
    imgSrc: [...new Set([...imgSources, ...thirdParty])],
    connectSrc: ["'self'", ...thirdParty],
    frameSrc: thirdParty.length ? thirdParty : ["'none'"],
    fontSrc: ["'self'"],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
    ...(config.env === 'production' ? { upgradeInsecureRequests: [] } : {}),
  };
}

/** The Fastify instance with its compilers, error handling, timeouts, route table and request ids. */
export function createFastify(config: AppConfig, overrides: AppOverrides): FastifyInstance {
  const app = Fastify({
    logger:
      overrides.logger === false
        ? false
        : { level: config.logLevel, serializers: logSerializers, ...(overrides.logStream ? { stream: overrides.logStream } : {}) },
    genReqId: () => randomUUID(),
    // Fastify gives each plugin 10 s to start. The web routes load every page's module first: from the
    // TypeScript sources (tests, development) on a busy machine that took longer, and a start is better slow
    // than failed. A plugin that truly hangs still fails the start after a minute.
    pluginTimeout: 60_000,
    // A client-sent id is not trusted: it would let anyone forge log correlation.
    requestIdHeader: false,
    // A number means "this many proxies in front": only their X-Forwarded-For entries are believed.
    trustProxy: typeof config.trustProxy === 'number' ? ((_address: string, hop: number) => hop < (config.trustProxy as number)) : config.trustProxy,
    bodyLimit: 1024 * 1024,
    // Slow clients are cut off (http/timeouts.ts): the whole request, the request line and headers, checked
    // every second instead of Node's 30 s.
    requestTimeout: config.timeouts.requestMs,
    http: { headersTimeout: config.timeouts.headersMs, connectionsCheckingInterval: 1000 },
    // What goes wrong before a route or a request exists answers in our error shape too (http/error-handler.ts).
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
  });
  app.setValidatorCompiler(zodValidatorCompiler);
  app.setSerializerCompiler(zodSerializerCompiler);
  registerErrorHandling(app);
  registerBodyTimeouts(app, { bodyMs: config.timeouts.bodyMs });
  const routeTable: { method: string; url: string }[] = [];
  app.decorate('routeTable', routeTable);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routeTable.push({ method, url: route.url });
  });

  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  return app;
}

/** Security headers (with the content security policy) and compression, for every answer. */
export async function registerHttpPlugins(app: FastifyInstance, config: AppConfig): Promise<void> {
  await app.register(helmet, {
    // A fresh nonce per answer: React's few inline scripts (Suspense reveal timing) carry it; nothing else runs.
    enableCSPNonces: true,
    contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicy(config) },
    hsts: config.env === 'production' ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    frameguard: { action: 'deny' },
    crossOriginEmbedderPolicy: false,
  });

  // Pages and API answers are compressed on the fly (a fast brotli level: a page costs about a millisecond;
  // level 6 costs what 5 does and makes a page about 200 bytes smaller, which keeps the larger pages within
  // the first round trip of a new connection, about 14 KB);
  // built assets are compressed once at build time and served as .br/.gz files. Request bodies are never
  // inflated: the body limit must hold for what arrives on the wire.
  await app.register(compress, {
    global: true,
    globalDecompression: false,
    encodings: ['br', 'gzip'],
    threshold: 1024,
    brotliOptions: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 6 } },
  });
}
