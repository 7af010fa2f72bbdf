// Staff routes of the studio (behind the /api/admin guard): who makes an order's pictures, the jobs and
// their progress, regenerating drafts, and the dead jobs with their retry.
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import type { AdminJob, DeadJobsResponse, StudioState } from '../../../domain/staff-api.js';
import type { JobProgress } from '../../../domain/stored-json.js';
import { IDENTITY } from '../../../studio/thresholds.js';
import { auditLog } from '../../db/schema.js';
import { conflict, notFound } from '../../http/errors.js';
import type { JobRow } from '../../jobs/queue.js';
import type { ZodTypeProvider } from '../../http/zod-provider.js';
import { staffOf } from '../auth/guard.js';
import { createOrderRepository } from '../orders/order-repository.js';
import { GENERATOR_QUEUE } from './generator-context.js';
import type { GeneratorService } from './generator-service.js';
import { retriedProgress } from './generator-start.js';
import { PRODUCTION_MODES, type StudioService } from './studio-service.js';

const orderParams = z.object({ id: z.uuid({ error: 'notFound' }) }).strict();

/** What staff see of a job's progress: counts, and for the generator each picture the gate discarded and why. */
function progressView(p: JobProgress | null): AdminJob['progress'] {
  if (!p || typeof p !== 'object') return null;
  const discarded = [...(p.earlier ?? []), ...(p.discarded ?? [])].slice(-60);
  return { done: p.done, total: p.total, refused: p.refused, ...(discarded.length ? { discarded, identityLimit: IDENTITY.maxSamePersonDistance } : {}), missing: p.missing };
}

function jobView(job: JobRow): AdminJob {
  return {
    id: job.id,
    queue: job.queue,
    // One of these: the table's check (jobs_status_check) allows no other.
    status: job.status as AdminJob['status'],
    attempts: job.attempts,
    maxAttempts: job.maxAttempts,
    progress: progressView(job.progress),
    lastError: job.lastError ? job.lastError.split('\n')[0]!.slice(0, 700) : null,
    orderId: job.orderId,
    runAt: job.runAt.toISOString(),
    createdAt: job.createdAt.toISOString(),
    finishedAt: job.finishedAt?.toISOString() ?? null,
  };
}

export const studioRoutes: FastifyPluginAsync<{ studio: StudioService; generator: GeneratorService }> = async (app, { studio, generator }) => {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const audit = (staffId: string, action: string, orderId: string | null, details: Record<string, unknown>) =>
    app.db.db.insert(auditLog).values({ actorType: 'staff', staffUserId: staffId, action, orderId, details, createdAt: app.now() });

  api.get('/api/admin/orders/:id/studio', { schema: { params: orderParams } }, async (request) => {
    const order = await createOrderRepository(app.db.db).find(request.params.id);
    if (!order) throw notFound('notFound');
    const jobs = await studio.jobsOf(order.id);
    // One of PRODUCTION_MODES: the table's check (orders_production_mode_check) allows no other.
    return { productionMode: order.productionMode as StudioState['productionMode'], generation: order.studioGeneration, generatorConfigured: generator.configured, jobs: jobs.map(jobView) } satisfies StudioState;
  });

  api.post('/api/admin/orders/:id/studio/mode', { schema: { params: orderParams, body: z.object({ mode: z.enum(PRODUCTION_MODES) }).strict() } }, async (request) => {
    // The generator starts its job at once for a paid order; the studio does when it has no drafts yet.
    const result =
      request.body.mode === 'generator' ? { jobId: await generator.choose(request.params.id) } : await studio.setProductionMode(request.params.id, request.body.mode);
    await audit(staffOf(request).id, 'studio.mode', request.params.id, { mode: request.body.mode });
    return result;
  });

  api.post(
    '/api/admin/orders/:id/studio/regenerate',
    { schema: { params: orderParams, body: z.object({ draftId: z.uuid().optional() }).strict() } },
    async (request) => {
      const result = await studio.regenerate(request.params.id, request.body.draftId);
      await audit(staffOf(request).id, 'studio.regenerate', request.params.id, { draftId: request.body.draftId ?? null, generation: result.generation });
      return result;
    },
  );

  api.post('/api/admin/orders/:id/generator/run', { schema: { params: orderParams } }, async (request) => {
    const jobId = await generator.start(request.params.id);
    await audit(staffOf(request).id, 'generator.run', request.params.id, { jobId });
    return { jobId };
  });

  // The generator's self-check (generator-self-check.ts): one real prediction with a public-domain face.
  api.get('/api/admin/generator/self-check', async () => {
    const latest = await generator.selfCheck.latest();
    const pictureUrl = latest?.result?.pictureKey ? await app.storage.signedUrl(latest.result.pictureKey, { expiresInSeconds: 3600 }) : null;
    return { configured: generator.configured, latest: latest ? { ...latest, pictureUrl } : null };
  });

  api.post('/api/admin/generator/self-check', async (request) => {
    if (!generator.configured) throw conflict('generatorNotConfigured');
    const jobId = await generator.selfCheck.start();
    await audit(staffOf(request).id, 'generator.selfCheck', null, { jobId });
    return { jobId };
  });

  api.get('/api/admin/jobs/dead', async (): Promise<DeadJobsResponse> => ({ jobs: (await app.jobs.dead()).map(jobView) }));

  api.post('/api/admin/jobs/:jobId/retry', { schema: { params: z.object({ jobId: z.coerce.number().int().positive() }).strict() } }, async (request) => {
    const job = await app.jobs.find(request.params.jobId);
    // A generator job asks anew for what the gate refused (new predictions, new seeds), not for nothing.
    if (!job || !(await app.jobs.retry(job.id, job.queue === GENERATOR_QUEUE ? { progress: retriedProgress } : {}))) throw notFound('notFound');
    await audit(staffOf(request).id, 'job.retry', null, { jobId: request.params.jobId });
    return { ok: true };
  });
};
