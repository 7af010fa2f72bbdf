import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import type { ZodTypeProvider } from '../../http/zod-provider.js';

const check = z.enum(['ok', 'failed']);
const healthResponse = z.object({ status: z.enum(['ok', 'degraded']), database: check, storage: check });

async function probe(fn: () => Promise<void>, timeoutMs: number): Promise<'ok' | 'failed'> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      fn(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('timeout')), timeoutMs);
      }),
    ]);
    return 'ok';
  } catch {
    return 'failed';
  } finally {
    clearTimeout(timer);
  }
}

export const healthRoutes: FastifyPluginAsync = async (app) => {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/health',
    { schema: { response: { 200: healthResponse, 503: healthResponse } }, logLevel: 'warn' },
    async (request, reply) => {
      const [database, storage] = await Promise.all([probe(() => app.db.ping(), 2000), probe(() => app.storage.ping(), 2000)]);
      if (database === 'failed' || storage === 'failed') request.log.warn({ database, storage }, 'health check failed');
      const ok = database === 'ok' && storage === 'ok';
      reply.header('cache-control', 'no-store');
      return reply.status(ok ? 200 : 503).send({ status: ok ? 'ok' : 'degraded', database, storage });
    },
  );
};
