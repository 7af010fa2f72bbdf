// Refunds in the back office (behind the /api/admin guard), and the sandbox's stand-in for the provider's
// answer: in the sandbox nothing pays money back, so staff play the provider's event explicitly.
import { eq } from 'drizzle-orm';
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { multilineText } from '../../../domain/validation.js';
import { orders } from '../../db/schema.js';
import { notFound } from '../../http/errors.js';
import type { ZodTypeProvider } from '../../http/zod-provider.js';
import type { SandboxPaymentProvider } from '../../payment-providers/sandbox-provider.js';
import { staffOf } from '../auth/guard.js';
import { deliverSandboxEvents } from '../payments/routes.js';
import type { RefundRow, RefundService } from './refund-service.js';

const orderParams = z.object({ id: z.uuid({ error: 'notFound' }) }).strict();

function refundView(refund: RefundRow) {
  return {
    id: refund.id,
    amountCents: refund.amountCents,
    seats: refund.seats,
    reason: refund.reason,
    status: refund.status,
    providerRefundId: refund.providerRefundId,
    requestedAt: refund.requestedAt.toISOString(),
    confirmedAt: refund.confirmedAt?.toISOString() ?? null,
    failureReason: refund.failureReason,
  };
}

export const refundRoutes: FastifyPluginAsync<{ refunds: RefundService }> = async (app, { refunds }) => {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get('/api/admin/orders/:id/refunds', { schema: { params: orderParams } }, async (request) => ({
    refunds: (await refunds.forOrder(request.params.id)).map(refundView),
    invoices: (await app.invoices.forOrder(request.params.id)).map((invoice) => ({
      id: invoice.id,
      number: invoice.number,
      kind: invoice.kind,
      issuedAt: invoice.issuedAt.toISOString(),
      grossCents: invoice.grossCents,
    })),
    sandbox: app.payments.name === 'sandbox',
  }));

  api.get(
    '/api/admin/orders/:id/invoices/:invoiceId',
    { schema: { params: z.object({ id: z.uuid({ error: 'notFound' }), invoiceId: z.uuid({ error: 'notFound' }) }).strict() } },
    async (request, reply) => {
      const file = await app.invoices.file(request.params.id, request.params.invoiceId);
      return reply
        .type('application/pdf')
        .header('cache-control', 'private, no-store')
        .header('content-disposition', `attachment; filename="${file.fileName.replace(/[^A-Za-z0-9._-]/g, '_')}"`)
        .send(file.buffer);
    },
  );

  api.post(
    '/api/admin/orders/:id/refunds',
    {
      schema: {
        params: orderParams,
        // An amount, or a team order's unused seats (the server works out their share of the price).
        body: z
          .object({ amountCents: z.number().int().min(1).max(10_000_000).optional(), seats: z.number().int().min(1).max(500).optional(), reason: multilineText().trim().max(500).optional() })
          .strict()
          .refine((body) => (body.amountCents === undefined) !== (body.seats === undefined), { error: 'amountOrSeats', path: ['amountCents'] }),
      },
    },
    async (request, reply) => {
      const { body } = request;
      const reason = body.reason || null;
      const refund = await refunds.request(request.params.id, body.seats !== undefined ? { seats: body.seats, reason } : { amountCents: body.amountCents!, reason }, staffOf(request).id);
      return reply.status(201).send(refundView(refund));
    },
  );

  // The same request again, after the provider gave no answer (timeout, outage): never a second refund.
  api.post(
    '/api/admin/orders/:id/refunds/:refundId/retry',
    { schema: { params: z.object({ id: z.uuid({ error: 'notFound' }), refundId: z.uuid({ error: 'notFound' }) }).strict() } },
    async (request) => refundView(await refunds.retry(request.params.id, request.params.refundId, staffOf(request).id)),
  );

  if (app.payments.name === 'sandbox') {
    const sandbox = app.payments as SandboxPaymentProvider;
    // Staff (guarded route) answer as the provider would: the refund went through, or it failed.
    api.post(
      '/api/admin/orders/:id/refunds/:refundId/sandbox/:outcome',
      { schema: { params: z.object({ id: z.uuid(), refundId: z.uuid(), outcome: z.enum(['succeeded', 'failed']) }).strict() } },
      async (request) => {
        const [refund] = (await refunds.forOrder(request.params.id)).filter((r) => r.id === request.params.refundId);
        const [order] = refund ? await app.db.db.select().from(orders).where(eq(orders.id, refund.orderId)) : [];
        if (!refund || !refund.providerRefundId || !order?.providerPaymentId) throw notFound('notFound');
        await deliverSandboxEvents(app, [
          sandbox.refundEvent({
            id: refund.providerRefundId,
            orderId: refund.orderId,
            refundId: refund.id,
            amountCents: refund.amountCents,
            paymentIntentId: order.providerPaymentId,
            outcome: request.params.outcome,
          }),
        ]);
        return refundView((await refunds.forOrder(request.params.id)).find((r) => r.id === refund.id)!);
      },
    );
  }
};
