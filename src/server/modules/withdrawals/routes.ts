// POST /api/withdrawals: the "Vertrag widerrufen" form, without login, rate-limited (the same form sent without
// script goes to POST /widerruf, which answers with the page); staff routes list the declarations (dashboard)
// and mark them handled.
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { LANGUAGES, type Language } from '../../../domain/catalog.js';
import { normalizeOrderNumber } from '../../../domain/order-number.js';
import { fieldErrors, withdrawalFormSchema } from '../../../domain/validation.js';
import type { Database } from '../../db/client.js';
import { AppError } from '../../http/errors.js';
import { createRateLimiter } from '../../http/rate-limit.js';
import type { ZodTypeProvider } from '../../http/zod-provider.js';
import type { WithdrawalService } from './withdrawal-service.js';

/** A declaration is rare; a flood from one address is not one. */
export const WITHDRAWAL_LIMIT = { attempts: 10, windowMs: 15 * 60 * 1000 } as const;
/**
 * Per order reference and per e-mail address, from any network address: the receipt tells whether a
 * reference and an address belong together, so guessing is held to tracking's pace; and nobody can
 * make the shop mail one address again and again.
 */
export const WITHDRAWAL_TARGET_LIMIT = { attempts: 5, windowMs: 15 * 60 * 1000 } as const;

const bodySchema = z.object({ name: z.unknown(), reference: z.unknown(), email: z.unknown(), language: z.enum(LANGUAGES).default('de') }).strict();

/** What a declaration sent by the form (with or without script) comes to. */
export type WithdrawalAnswer =
  | { kind: 'received'; receipt: Awaited<ReturnType<WithdrawalService['declare']>>; email: string }
  | { kind: 'invalid'; fields: Record<string, string> }
  | { kind: 'rateLimited' };

/**
 * The form's one way in, for the JSON API the app sends to and for the page's own form sent without script
 * (POST /widerruf, src/server/modules/web/routes.ts): checked, limited per network address, stored.
 */
export function createWithdrawalDesk(db: Database, now: () => Date, withdrawals: WithdrawalService) {
  const limiter = createRateLimiter(db, now);
  return async (fields: Record<string, unknown>, language: Language, ip: string): Promise<WithdrawalAnswer> => {
    const form = withdrawalFormSchema.safeParse(fields);
    if (!form.success) return { kind: 'invalid', fields: fieldErrors(form.error) };
    const address = await limiter.hit(`withdrawal:ip:${ip}`, WITHDRAWAL_LIMIT.attempts, WITHDRAWAL_LIMIT.windowMs);
    if (!address.allowed) return { kind: 'rateLimited' };
    // Many declarations for one order or one address, from anywhere: still stored (nobody can block a
    // customer's withdrawal), but answered without a word about the order (see declare).
    const targets = [
      await limiter.hit(`withdrawal:ref:${normalizeOrderNumber(form.data.reference)}`, WITHDRAWAL_TARGET_LIMIT.attempts, WITHDRAWAL_TARGET_LIMIT.windowMs),
      await limiter.hit(`withdrawal:email:${form.data.email}`, WITHDRAWAL_TARGET_LIMIT.attempts, WITHDRAWAL_TARGET_LIMIT.windowMs),
    ];
    const receipt = await withdrawals.declare(form.data, language, { limited: targets.some((hit) => !hit.allowed) });
    return { kind: 'received', receipt, email: form.data.email };
  };
}

export type WithdrawalDesk = ReturnType<typeof createWithdrawalDesk>;

export const withdrawalRoutes: FastifyPluginAsync<{ withdrawals: WithdrawalService; desk: WithdrawalDesk }> = async (app, { withdrawals, desk }) => {
  const api = app.withTypeProvider<ZodTypeProvider>();

  app.post('/api/withdrawals', async (request, reply) => {
    const body = bodySchema.safeParse(request.body);
    if (!body.success) throw new AppError(400, 'validationFailed');
    const { language, ...fields } = body.data;
    const answer = await desk(fields, language, request.ip);
    if (answer.kind === 'invalid') return reply.status(400).send({ error: { code: 'validationFailed', requestId: request.id, fields: answer.fields } });
    if (answer.kind === 'rateLimited') throw new AppError(429, 'rateLimited');
    return reply.status(201).send(answer.receipt);
  });

  api.get('/api/admin/withdrawals', { schema: { querystring: z.object({ status: z.enum(['new', 'all']).default('new') }).strict() } }, async (request) => ({
    withdrawals: (await withdrawals.list(request.query.status)).map((w) => ({
      id: w.id,
      orderId: w.orderId,
      name: w.name,
      orderReference: w.orderReference,
      email: w.email,
      language: w.language,
      outcome: w.outcome,
      status: w.status,
      createdAt: w.createdAt.toISOString(),
    })),
  }));

  api.post('/api/admin/withdrawals/:id/handled', { schema: { params: z.object({ id: z.uuid({ error: 'notFound' }) }).strict() } }, async (request) => {
    await withdrawals.markHandled(request.params.id);
    return { ok: true };
  });
};
