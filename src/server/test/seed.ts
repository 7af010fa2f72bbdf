// Orders for integration tests, placed and paid through the app's own routes; results (made by staff or
// the studio in the real flow) are written the way those features store them.
import { randomBytes, randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { PHOTO_NAME_HEADER } from '../../domain/catalog.js';
import { PHOTO_CONSENT_VERSION, WAIVER_TEXT_VERSION } from '../../domain/order-selection.js';
import type { PictureVariant, StoredPhotoQuality, StoredQualityReport } from '../../domain/stored-json.js';
import { generatedImages, orders } from '../db/schema.js';
import { WEBHOOK_PATH } from '../modules/payments/routes.js';
import type { SandboxPaymentProvider } from '../payment-providers/sandbox-provider.js';
import { portraitJpeg } from '../../testing/images.js';

export const BASIC_SELECTION = { gender: 'male', style: 'casual', package: 'basic', location: null, outfit: null, extras: [] };

export interface SeededOrder {
  orderId: string;
  orderNumber: string;
  draftToken: string;
  email: string;
}

export interface SeededDraft {
  orderId: string;
  orderNumber: string;
  draftToken: string;
  /** The ids of the uploaded photos, in upload order. */
  uploadIds: string[];
}

/** One photo sent to a draft's upload route as the wizard sends it; the answer as it is (201, 202 or a refusal). */
export function sendPhoto(
  app: FastifyInstance,
  draft: { orderId: string; draftToken: string },
  buffer: Buffer,
  fileName = 'selfie.jpg',
  contentType = 'image/jpeg',
) {
  return app.inject({
    method: 'POST',
    url: `/api/orders/${draft.orderId}/uploads`,
    headers: { 'content-type': contentType, [PHOTO_NAME_HEADER]: encodeURIComponent(fileName), 'x-draft-token': draft.draftToken },
    payload: buffer,
  });
}

/** A draft order with its photos, as the wizard makes it before the order button. */
export async function createDraft(app: FastifyInstance, options: { selection?: object; photos?: number; photo?: (index: number) => Promise<Buffer> } = {}): Promise<SeededDraft> {
  const draft = (
    await app.inject({
      method: 'POST',
      url: '/api/orders',
      payload: { language: 'de', selection: options.selection ?? BASIC_SELECTION, photoConsent: true, photoConsentVersion: PHOTO_CONSENT_VERSION },
    })
  ).json();
  const uploadIds: string[] = [];
  for (let i = 0; i < (options.photos ?? 3); i++) {
    const jpeg = options.photo ? await options.photo(i) : await portraitJpeg();
    const response = await sendPhoto(app, draft, jpeg, `selfie-${i + 1}.jpg`);
    if (response.statusCode !== 201) throw new Error(`seed upload failed: ${response.body}`);
    uploadIds.push(response.json().id);
  }
  return { orderId: draft.orderId, orderNumber: draft.orderNumber, draftToken: draft.draftToken, uploadIds };
}

export async function placeOrder(
  app: FastifyInstance,
  options: {
    email?: string;
    selection?: object;
    photos?: number;
    /** The customer's selfies (default: the public-domain portrait); franckJpeg gives one man in other photos. */
    photo?: (index: number) => Promise<Buffer>;
    language?: 'de' | 'en' | 'es';
    billing?: { billingName?: string; billingAddress?: string };
  } = {},
): Promise<SeededOrder> {
  const email = options.email ?? `kunde-${randomBytes(4).toString('hex')}@example.de`;
  const selection = options.selection ?? BASIC_SELECTION;
  const draft = await createDraft(app, { selection, photos: options.photos ?? 3, ...(options.photo ? { photo: options.photo } : {}) });
  const checkout = await app.inject({
    method: 'POST',
    url: `/api/orders/${draft.orderId}/checkout`,
    headers: { 'x-draft-token': draft.draftToken },
    payload: { language: options.language ?? 'de', selection, email, waiverAccepted: true, waiverTextVersion: WAIVER_TEXT_VERSION, ...options.billing },
  });
  if (checkout.statusCode !== 200) throw new Error(`seed checkout failed: ${checkout.body}`);
  return { orderId: draft.orderId, orderNumber: draft.orderNumber, draftToken: draft.draftToken, email };
}

/** A signed provider event, sent to the webhook as the provider would; the answer says what it did. */
export function deliverEvent(app: FastifyInstance, event: { body: string; signature: string }) {
  return app.inject({ method: 'POST', url: WEBHOOK_PATH, headers: { 'content-type': 'application/json', 'stripe-signature': event.signature }, payload: event.body });
}

export async function payOrder(app: FastifyInstance, order: SeededOrder) {
  const [row] = await app.db.db.select().from(orders).where(eq(orders.id, order.orderId));
  const result = await (app.payments as SandboxPaymentProvider).simulate(row!.providerSessionId!, 'pay');
  for (const event of result!.events) await deliverEvent(app, event);
}

/** Stores result images under results/<order>/ as staff uploads will, with the given statuses. */
export async function addResults(app: FastifyInstance, orderId: string, statuses: ('draft' | 'active' | 'archived')[]) {
  const ids: string[] = [];
  for (const [index, status] of statuses.entries()) {
    const buffer = await sharp(await portraitJpeg(800, 1000)).modulate({ brightness: 1 + index * 0.05 }).jpeg().toBuffer();
    const key = `results/${orderId}/${randomBytes(16).toString('hex')}.jpg`;
    await app.storage.put(key, buffer, { contentType: 'image/jpeg' });
    const id = randomUUID();
    await app.db.db.insert(generatedImages).values({
      id,
      orderId,
      fileName: `ergebnis ${index + 1}.jpg`,
      fileSize: buffer.length,
      mimeType: 'image/jpeg',
      width: 800,
      height: 1000,
      storageKey: key,
      generationType: 'admin_upload',
      status,
      createdAt: new Date(Date.UTC(2026, 10, 1, 12, 0, index)),
    });
    ids.push(id);
  }
  return ids;
}

/**
 * A picture's variant with only what a test is about (its format, its slot in the run). The studio and the
 * generator write whole variants (domain/stored-json.ts); tests give their staff uploads just these fields.
 */
export function variantWith(fields: { format?: string; index?: number }): PictureVariant {
  return fields as PictureVariant;
}

/** A photo's quality report with only what a test is about (its verdict, warnings, descriptor); the gate writes them all. */
export function qualityWith(fields: { verdict: StoredQualityReport['verdict']; issues: { code: string }[]; descriptor?: number[] }): StoredPhotoQuality {
  return fields as StoredPhotoQuality;
}

export async function setOrder(app: FastifyInstance, orderId: string, values: Partial<typeof orders.$inferInsert>) {
  await app.db.db.update(orders).set(values).where(eq(orders.id, orderId));
}
