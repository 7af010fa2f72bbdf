// The payment webhook (one route for Stripe and the sandbox) and the sandbox's test checkout page.
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { isLanguage } from '../../../domain/catalog.js';
import { plainText } from '../../../domain/validation.js';
import { AppError } from '../../http/errors.js';
import type { ZodTypeProvider } from '../../http/zod-provider.js';
import { WebhookSignatureError, type PaymentProvider } from '../../payment-providers/provider.js';
import { SANDBOX_CSS, SANDBOX_CSS_PATH, renderSandboxCheckoutPage } from '../../payment-providers/sandbox-checkout-page.js';
import { SANDBOX_OUTCOMES, type SandboxPaymentProvider } from '../../payment-providers/sandbox-provider.js';
import type { OrderService } from '../orders/order-service.js';

export const WEBHOOK_PATH = '/api/payments/webhook';

interface Options {
  service: OrderService;
  provider: PaymentProvider;
}

/** Raw body on this route only: the signature is computed over the exact bytes. */
const webhookRoute: FastifyPluginAsync<Options> = async (app, { service, provider }) => {
  app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: 512 * 1024 }, (_request, body, done) => done(null, body));
  app.post(WEBHOOK_PATH, async (request, reply) => {
    const signature = request.headers['stripe-signature'];
    let event;
    try {
      event = await provider.verifyWebhook(request.body as Buffer, typeof signature === 'string' ? signature : undefined);
    } catch (error) {
      if (error instanceof WebhookSignatureError) throw new AppError(400, 'invalidSignature');
      throw error;
    }
    const outcome = await service.applyPaymentEvent(event);
    request.log.info({ eventId: event.id, type: event.rawType, orderId: event.orderId, outcome }, 'payment event');
    return reply.send({ received: true, outcome });
  });
};

/** Delivers the sandbox's signed events through the very route Stripe's events take. */
export async function deliverSandboxEvents(app: FastifyInstance, events: { body: string; signature: string }[]) {
  for (const event of events) {
    const response = await app.inject({
      method: 'POST',
      url: WEBHOOK_PATH,
      headers: { 'content-type': 'application/json', 'stripe-signature': event.signature },
      payload: event.body,
    });
    if (response.statusCode !== 200) throw new AppError(502, 'webhookFailed', `sandbox event refused: ${response.body}`);
  }
}

const sandboxRoutes: FastifyPluginAsync<{ provider: SandboxPaymentProvider }> = async (app, { provider }) => {
  // The page's buttons are plain HTML forms; their (empty) bodies need no parsing.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, _body, done) => done(null, {}));
  const api = app.withTypeProvider<ZodTypeProvider>();
  const params = z.object({ id: z.string().regex(/^cs_test_sandbox_[a-f0-9]{32}$/) }).strict();

  api.get(SANDBOX_CSS_PATH, async (_request, reply) => reply.type('text/css; charset=utf-8').header('cache-control', 'public, max-age=3600').send(SANDBOX_CSS));

  api.get('/sandbox/checkout/:id', { schema: { params, querystring: z.object({ lang: plainText().max(10).optional() }).strict() } }, async (request, reply) => {
    const session = await provider.getSession(request.params.id);
    if (!session) throw new AppError(404, 'notFound');
    const language = isLanguage(request.query.lang) ? request.query.lang : session.locale;
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(renderSandboxCheckoutPage(session, language));
  });

  api.post(
    '/sandbox/checkout/:id/:outcome',
    { schema: { params: z.object({ id: params.shape.id, outcome: z.enum(SANDBOX_OUTCOMES) }).strict() } },
    async (request, reply) => {
      const result = await provider.simulate(request.params.id, request.params.outcome);
      if (!result) throw new AppError(404, 'notFound');
      await deliverSandboxEvents(app, result.events);
      return reply.redirect(result.redirectTo, 303);
    },
  );
};

export const paymentRoutes: FastifyPluginAsync<Options> = async (app, options) => {
  await app.register(webhookRoute, options);
  if (options.provider.name === 'sandbox') await app.register(sandboxRoutes, { provider: options.provider as SandboxPaymentProvider });
};
