// The order flow's test shop and its steps over HTTP, shared by the order tests (order-uploads.test.ts,
// orders.test.ts): a draft, its photos, the checkout and the payment provider's events.
import { count, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { PHOTO_CONSENT_VERSION, WAIVER_TEXT_VERSION } from '../../../domain/order-selection.js';
import { orderUploads, orders, outgoingMail } from '../../db/schema.js';
import type { SandboxPaymentProvider } from '../../payment-providers/sandbox-provider.js';
import type { TestDatabase } from '../../test/databases.js';
import { sendPhoto } from '../../test/seed.js';
import { suiteApp } from '../../test/suite-app.js';
import { portraitJpeg } from '../../../testing/images.js';
import { WEBHOOK_PATH } from '../payments/routes.js';

const CAMPAIGN = {
  CAMPAIGN_PERCENT: '20',
  CAMPAIGN_PACKAGES: 'pro,premium',
  CAMPAIGN_STARTS_AT: '2026-01-01T00:00:00Z',
  CAMPAIGN_ENDS_AT: '2099-01-01T00:00:00Z',
};

// The test shop has no generator: refinement is the backdrop alone, and no outfit can be chosen.
export const PRO = { gender: 'female', style: 'professional', package: 'pro', location: 'creative', outfit: null, extras: ['extra_variants', 'express_delivery'] };
export const BASIC = { gender: 'male', style: 'casual', package: 'basic', location: null, outfit: null, extras: [] };

/** Call in a describe block: the suite's shop (with the campaign on) and the steps of an order in it. */
export function orderFlow(testDb: TestDatabase) {
  const t = suiteApp(testDb, CAMPAIGN);

  async function draft(selection: object = BASIC) {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/orders',
      payload: { language: 'de', selection, photoConsent: true, photoConsentVersion: PHOTO_CONSENT_VERSION },
    });
    expect(response.statusCode).toBe(201);
    return response.json() as { orderId: string; draftToken: string; orderNumber: string };
  }

  /** As the wizard sends a photo: the file as the body, its name in X-File-Name. */
  function upload(order: { orderId: string; draftToken: string }, buffer: Buffer, fileName?: string, contentType?: string) {
    return sendPhoto(t.app, order, buffer, fileName, contentType);
  }

  async function rows(orderId: string) {
    const [row] = await t.db.db.select({ n: count() }).from(orderUploads).where(eq(orderUploads.orderId, orderId));
    return Number(row!.n);
  }

  async function files(orderId: string) {
    return t.app.storage.listKeys(`uploads/${orderId}/`);
  }

  async function readyOrder(selection: object = BASIC, photos = 3) {
    const order = await draft(selection);
    const jpeg = await portraitJpeg();
    for (let i = 0; i < photos; i++) expect((await upload(order, jpeg)).statusCode).toBe(201);
    return order;
  }

  function checkout(order: { orderId: string; draftToken: string }, body: Record<string, unknown> = {}) {
    return t.app.inject({
      method: 'POST',
      url: `/api/orders/${order.orderId}/checkout`,
      headers: { 'x-draft-token': order.draftToken },
      payload: { language: 'de', selection: BASIC, email: 'Kundin@Example.de', waiverAccepted: true, waiverTextVersion: WAIVER_TEXT_VERSION, ...body },
    });
  }

  function deliver(event: { body: string; signature: string }) {
    return t.app.inject({ method: 'POST', url: WEBHOOK_PATH, headers: { 'content-type': 'application/json', 'stripe-signature': event.signature }, payload: event.body });
  }

  const sandbox = () => t.app.payments as SandboxPaymentProvider;
  const orderRow = async (id: string) => (await t.db.db.select().from(orders).where(eq(orders.id, id)))[0]!;
  const mails = async (orderId: string, template: string) =>
    t.db.db.select().from(outgoingMail).where(eq(outgoingMail.orderId, orderId)).then((all) => all.filter((m) => m.template === template));

  return { t, draft, upload, rows, files, readyOrder, checkout, deliver, sandbox, orderRow, mails };
}
