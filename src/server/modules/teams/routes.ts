// Team orders over HTTP: the buyer's checkout and team page (the team order's status token), the join link
// (its own signed token), and the member's submission (the member order's draft token, as in the wizard).
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { GENDERS } from '../../../domain/catalog.js';
import { teamCheckoutSchema, teamInviteSchema, teamJoinSchema } from '../../../domain/team.js';
import { plainText } from '../../../domain/validation.js';
import { AppError, notFound } from '../../http/errors.js';
import { createRateLimiter } from '../../http/rate-limit.js';
import type { ZodTypeProvider } from '../../http/zod-provider.js';
import { checkDownload } from '../customer-orders/download-links.js';
import { createOrderRepository } from '../orders/order-repository.js';
import { checkStatusToken, isDraftToken } from '../orders/order-tokens.js';
import { TEAM_ZIP_KINDS, type TeamService } from './team-service.js';

const teamParams = z.object({ id: z.uuid({ error: 'notFound' }) }).strict();
const joinParams = z.object({ token: plainText().max(100) }).strict();
const HOUR_MS = 3600 * 1000;

export const teamRoutes: FastifyPluginAsync<{ service: TeamService }> = async (app, { service }) => {
  const secret = app.config.appSecret;
  const api = app.withTypeProvider<ZodTypeProvider>();
  const limiter = createRateLimiter(app.db.db, app.now);

  /** The buyer: the team page's link from the mails (the team order's status token). */
  async function requireBuyer(request: { params: { id: string }; headers: FastifyRequest['headers'] }) {
    const header = request.headers['x-status-token'];
    const order = await createOrderRepository(app.db.db).find(request.params.id);
    const verdict = order && order.seats !== null ? checkStatusToken(secret, order, typeof header === 'string' ? header : undefined, app.now()) : 'invalid';
    if (verdict === 'expired') throw new AppError(403, 'linkExpired');
    if (verdict !== 'valid') throw notFound('notFound');
  }

  async function limit(reply: FastifyReply, key: string, attempts: number) {
    const result = await limiter.hit(key, attempts, HOUR_MS);
    if (result.allowed) return;
    const retryAfterSeconds = Math.max(1, Math.ceil((result.resetAt.getTime() - app.now().getTime()) / 1000));
    reply.header('retry-after', String(retryAfterSeconds));
    throw new AppError(429, 'rateLimited', 'rateLimited', { retryAfterSeconds });
  }

  api.post('/api/teams', { schema: { body: teamCheckoutSchema } }, async (request, reply) => {
    await limit(reply, `teams:ip:${request.ip}`, app.config.limits.draftsPerHour);
    return reply.status(201).send(await service.checkout(request.body));
  });

  api.get('/api/teams/:id', { schema: { params: teamParams } }, async (request) => {
    await requireBuyer(request);
    return service.view(request.params.id);
  });

  api.post('/api/teams/:id/invites', { schema: { params: teamParams, body: teamInviteSchema } }, async (request, reply) => {
    await requireBuyer(request);
    await limit(reply, `team-invites:${request.params.id}`, 20);
    return service.invite(request.params.id, request.body.emails);
  });

  api.post('/api/teams/:id/invites/:inviteId/remind', { schema: { params: teamParams.extend({ inviteId: z.uuid({ error: 'notFound' }) }).strict() } }, async (request) => {
    await requireBuyer(request);
    return service.remind(request.params.id, request.params.inviteId);
  });

  /** An order not paid yet: the payment page again (the open session, or a new one for the fixed price). */
  api.post('/api/teams/:id/pay', { schema: { params: teamParams } }, async (request, reply) => {
    await requireBuyer(request);
    await limit(reply, `team-pay:${request.params.id}`, 20);
    return service.pay(request.params.id);
  });

  api.post('/api/teams/:id/link', { schema: { params: teamParams } }, async (request) => {
    await requireBuyer(request);
    return service.renewLink(request.params.id);
  });

  api.post('/api/teams/:id/members/:memberId/remove', { schema: { params: teamParams.extend({ memberId: z.uuid({ error: 'notFound' }) }).strict() } }, async (request) => {
    await requireBuyer(request);
    return service.removeMember(request.params.id, request.params.memberId);
  });

  const zipQuery = z.object({ kind: z.enum(TEAM_ZIP_KINDS), exp: plainText().max(20).optional(), sig: plainText().max(128).optional() }).strict();
  api.get('/api/teams/:id/results.zip', { schema: { params: teamParams, querystring: zipQuery } }, async (request, reply) => {
    const check = checkDownload(secret, request.params.id, { kind: 'teamZip', variant: request.query.kind }, request.query.exp, request.query.sig, app.now());
    if (check !== 'valid') throw new AppError(403, check);
    const { stream, fileName } = await service.teamZip(request.params.id, request.query.kind);
    return reply.header('cache-control', 'no-store').header('content-disposition', `attachment; filename="${fileName}"`).type('application/zip').send(stream);
  });

  api.get('/api/team-join/:token', { schema: { params: joinParams } }, async (request) => service.joinInfo(request.params.token));

  api.post('/api/team-join/:token', { schema: { params: joinParams, body: teamJoinSchema } }, async (request, reply) => {
    // Per address: a link passed around cannot be used to make drafts without end.
    await limit(reply, `drafts:ip:${request.ip}`, app.config.limits.draftsPerHour);
    const joined = await service.join(request.params.token, { email: request.body.email, language: request.body.language });
    return reply.status(201).send(joined);
  });

  api.post(
    '/api/team-members/:id/submit',
    { schema: { params: teamParams, body: z.object({ gender: z.enum(GENDERS, { error: 'genderRequired' }) }).strict() } },
    async (request) => {
      const token = request.headers['x-draft-token'];
      if (!isDraftToken(secret, request.params.id, typeof token === 'string' ? token : undefined)) throw notFound('orderNotFound');
      return service.submitMember(request.params.id, request.body.gender);
    },
  );
};
