// The order flow on the server: drafts, uploads, selections, checkout and payment events.
// Every price is computed here from the domain catalogue; the browser only chooses.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Campaign } from '../../../domain/campaign.js';
import type { Capabilities } from '../../../domain/capabilities.js';
import { PACKAGES, UPLOAD_LIMITS, type Language } from '../../../domain/catalog.js';
import { orderNumberFromBytes } from '../../../domain/order-number.js';
import type { ProductionMode } from '../../../domain/order-state.js';
import {
  PHOTO_CONSENT_VERSION,
  completeSelection,
  deliverableSelection,
  type CheckoutInput,
  type CompleteSelection,
  type Selection,
} from '../../../domain/order-selection.js';
import { priceOrder } from '../../../domain/pricing.js';
import type { UploadView } from '../../../domain/order-views.js';
import type { SiteInfo } from '../../../domain/site.js';
import { ALL_MESSAGES } from '../../../i18n/all-messages.js';
import { translate } from '../../../i18n/messages.js';
import type { Database, Executor } from '../../db/client.js';
import { AppError, conflict, notFound, unprocessable } from '../../http/errors.js';
import type { Mailer } from '../../mail/mailer.js';
import type { PaymentEvent, PaymentProvider } from '../../payments/provider.js';
import { noteIntent, settleIntent } from '../../storage/intents.js';
import type { Storage } from '../../storage/storage.js';
import { showsAnotherPerson } from '../../../studio/identity.js';
import type { QualityReport } from '../../../studio/quality-gate.js';
import { processCustomerPhoto } from '../uploads/image-processing.js';
import { photoQualityView } from '../studio/photo-quality.js';
import { createOrderRepository, type OrderRow, type UploadRow } from './order-repository.js';
import { selectionOf } from './order-mail-data.js';
import { createPaymentEventService, type EventEffect } from './payment-events.js';
import { deferMail, type DeferredMail, type DeferredMailSender } from '../../mail/deferred-mail.js';
import { statusUrl } from './order-tokens.js';

export interface OrderServiceDeps {
  db: Database;
  storage: Storage;
  mailer: Mailer;
  payments: PaymentProvider;
  campaign: Campaign | null;
  publicUrl: string;
  appSecret: string;
  site: SiteInfo;
  signedUrlTtlSeconds: number;
  /** The quality gate (src/studio): refusals stop an upload, warnings are kept with it. */
  checkPhoto: (photo: Buffer) => Promise<QualityReport | null>;
  /** Runs inside the payment's transaction: work that must start exactly when an order is paid (studio drafts). */
  onPaid?: (tx: Executor, order: OrderRow) => Promise<void>;
  /** After the payment's commit: the invoice's signed download link for the payment mail (null: none). */
  invoiceLink?: (order: OrderRow) => Promise<string | null>;
  /** Refund events (refund.created / refund.updated / refund.failed), applied by the refund service inside the event's transaction. */
  onRefundEvent?: (tx: Executor, event: PaymentEvent) => Promise<EventEffect>;
  /** Senders of the mails the refund events owe. */
  refundMailSenders?: Record<string, DeferredMailSender>;
  /** Who makes the pictures of a new order (staff may change it per order). */
  defaultProductionMode?: ProductionMode;
  /** What the shop's pictures can be (src/server/capabilities.ts): without new outfits none is taken. */
  capabilities: Capabilities;
  now: () => Date;
  log: FastifyBaseLogger;
}


export interface DraftView {
  orderId: string;
  orderNumber: string;
  status: string;
  paymentStatus: string;
  language: string;
  email: string | null;
  selection: Selection;
  uploads: UploadView[];
  editable: boolean;
}

export interface ConfirmationView {
  orderId: string;
  orderNumber: string;
  email: string | null;
  package: string | null;
  extras: string[];
  totalCents: number | null;
  status: string;
  paymentStatus: string;
  paidAt: string | null;
  statusUrl: string;
}

// Longer than the slowest provider call (Stripe: 20 s timeout, 2 retries).
const CHECKOUT_CLAIM_SECONDS = 90;
/** Sessions closer than this to their expiry are not handed out again. */
const SESSION_REUSE_MARGIN_MS = 5 * 60 * 1000;

function selectionColumns(selection: Selection) {
  return {
    gender: selection.gender,
    styleBase: selection.style,
    package: selection.package,
    refineLocation: selection.location,
    refineOutfit: selection.outfit,
    featureExtraVariants: selection.extras.includes('extra_variants'),
    featureExpressDelivery: selection.extras.includes('express_delivery'),
  };
}

/** Drafts can change until they are paid; a cancelled or paid order is final. */
function isEditable(order: OrderRow): boolean {
  return order.status === 'created' && order.paymentStatus !== 'paid' && order.paymentStatus !== 'refunded';
}

/**
 * The name shown to the customer and staff: no control characters, no path separators, and no format
 * characters (Cf: bidirectional overrides that show "gpj.exe" as "exe.jpg", zero-width and invisible marks).
 */
function safeFileName(name: string | undefined): string {
  const cleaned = (name ?? 'foto').normalize('NFC').replace(/[\p{Cc}\p{Cf}/\\]/gu, '').trim();
  return (cleaned || 'foto').slice(0, 200);
}

export function createOrderService(deps: OrderServiceDeps) {
  const { db, storage, payments } = deps;
  const orders = createOrderRepository(db);
  const paymentEvents = createPaymentEventService(deps);

  async function uploadView(upload: UploadRow): Promise<UploadView> {
    const [url, thumbnailUrl] = await Promise.all([
      storage.signedUrl(upload.storageKey, { expiresInSeconds: deps.signedUrlTtlSeconds }),
      storage.signedUrl(thumbnailKey(upload.storageKey), { expiresInSeconds: deps.signedUrlTtlSeconds }),
    ]);
    return { id: upload.id, fileName: upload.fileName, width: upload.width, height: upload.height, url, thumbnailUrl, quality: photoQualityView(upload.quality) };
  }

  async function requireOrder(orderId: string): Promise<OrderRow> {
    const order = await orders.find(orderId);
    if (!order) throw notFound('orderNotFound');
    return order;
  }

  async function draftView(order: OrderRow): Promise<DraftView> {
    const uploads = await orders.uploads(order.id);
    return {
      orderId: order.id,
      orderNumber: order.orderNumber,
      status: order.status,
      paymentStatus: order.paymentStatus,
      language: order.language,
      email: order.email,
      selection: selectionOf(order),
      uploads: await Promise.all(uploads.map(uploadView)),
      editable: isEditable(order),
    };
  }

  async function createOrderRow(language: Language, selection: Selection) {
    for (let attempt = 0; ; attempt++) {
      try {
        return await orders.insert({
          id: randomUUID(),
          orderNumber: orderNumberFromBytes(randomBytes(8)),
          language,
          ...selectionColumns(selection),
          photoConsentAt: deps.now(),
          photoConsentVersion: PHOTO_CONSENT_VERSION,
          productionMode: deps.defaultProductionMode ?? 'studio',
          createdAt: deps.now(),
          updatedAt: deps.now(),
        });
      } catch (error) {
        // 30^8 numbers: a collision is rare, but the unique key decides, not luck.
        if (attempt < 3 && String((error as { cause?: { message?: string } }).cause?.message ?? error).includes('orders_order_number_key')) continue;
        throw error;
      }
    }
  }

  /**
   * A placed order changes only after its payment page is closed: the open session is expired at the
   * provider first, so the contract that can be paid is always the one stored (decisions.md section 4).
   */
  async function releaseCheckout(order: OrderRow): Promise<void> {
    if (!order.providerSessionId) return;
    const outcome = await payments.expireSession(order.providerSessionId);
    if (outcome === 'alreadyComplete') {
      const state = await payments.retrieveSession(order.providerSessionId);
      throw conflict(state.paymentStatus === 'paid' ? 'alreadyPaid' : 'paymentPending');
    }
    await db.transaction(async (tx) => {
      const repo = createOrderRepository(tx);
      await repo.update(order.id, { providerSessionId: null, providerSessionUrl: null, providerSessionTotalCents: null, providerSessionExpiresAt: null });
      await repo.addHistory(order.id, { event: 'checkout_expired', actorType: 'customer', note: 'changed after ordering' });
    });
  }

  return {
    async createDraft(input: { language: Language; selection: Selection }) {
      const order = await createOrderRow(input.language, deliverableSelection(input.selection, deps.capabilities));
      await orders.addHistory(order.id, { event: 'order_created', toStatus: 'created', actorType: 'customer' });
      return draftView(order);
    },

    async getDraft(orderId: string) {
      return draftView(await requireOrder(orderId));
    },

    async saveSelection(orderId: string, language: Language, sent: Selection) {
      const selection = deliverableSelection(sent, deps.capabilities);
      const order = await requireOrder(orderId);
      if (!isEditable(order)) throw conflict('orderLocked');
      const same = (a: Selection, b: Selection) =>
        JSON.stringify({ ...a, extras: [...a.extras].sort() }) === JSON.stringify({ ...b, extras: [...new Set(b.extras)].sort() });
      if (same(selectionOf(order), selection) && order.language === language) return draftView(order);
      await releaseCheckout(order);
      return draftView(await orders.update(orderId, { language, ...selectionColumns(selection) }));
    },

    async addUpload(orderId: string, file: { buffer: Buffer; fileName: string | undefined }): Promise<UploadView> {
      const existing = await requireOrder(orderId);
      if (!isEditable(existing)) throw conflict('orderLocked');
      await releaseCheckout(existing);
      // Cheap early answer; the count is enforced again under the row lock below.
      if ((await orders.uploadCount(orderId)) >= UPLOAD_LIMITS.maxPhotos) throw conflict('tooManyPhotos', { max: UPLOAD_LIMITS.maxPhotos });
      const processed = await processCustomerPhoto(file.buffer);
      if (!processed.ok) {
        const status = processed.code === 'fileTooLarge' ? 413 : processed.code === 'tooManyPixels' || processed.code === 'resolutionTooLow' ? 422 : 415;
        throw new AppError(status, processed.code, processed.code, processed.code === 'resolutionTooLow' ? { minShortSidePx: UPLOAD_LIMITS.minShortSidePx } : undefined);
      }
      const image = processed.image;
      // Before anything is stored: a refused photo leaves nothing behind.
      const quality = await deps.checkPhoto(image.buffer);
      if (quality?.verdict === 'refused') throw unprocessable(quality.issues[0]!.code);
      // Every photo of an order shows the same person: a face unlike all the accepted ones is refused.
      if (showsAnotherPerson(quality, (await orders.uploads(orderId)).map((upload) => upload.quality))) throw unprocessable('differentPerson');
      const key = `uploads/${orderId}/${randomBytes(16).toString('hex')}.${image.extension}`;
      const files = [key, thumbnailKey(key)];
      // Noted first: should this process die before the row commits, the deletion job finds the files.
      await noteIntent(db, files, deps.now());
      try {
        await storage.put(key, image.buffer, { contentType: image.mimeType });
        await storage.put(thumbnailKey(key), image.thumbnail, { contentType: 'image/jpeg' });
        const row = await db.transaction(async (tx) => {
          const repo = createOrderRepository(tx);
          const order = await repo.lock(orderId);
          if (!order) throw notFound('orderNotFound');
          if (!isEditable(order) || order.providerSessionId) throw conflict('orderLocked');
          if ((await repo.uploadCount(orderId)) >= UPLOAD_LIMITS.maxPhotos) throw conflict('tooManyPhotos', { max: UPLOAD_LIMITS.maxPhotos });
          // Again under the lock: of two photos sent at once, the second is compared with the first.
          if (showsAnotherPerson(quality, (await repo.uploads(orderId)).map((upload) => upload.quality))) throw unprocessable('differentPerson');
          // New photos after an earlier deletion (a retry days later) are kept under the usual rules again.
          if (order.photosDeletedAt) await repo.update(orderId, { photosDeletedAt: null });
          await settleIntent(tx, files);
          return repo.insertUpload({
            id: randomUUID(),
            orderId,
            fileName: safeFileName(file.fileName),
            fileSize: image.bytes,
            mimeType: image.mimeType,
            width: image.width,
            height: image.height,
            storageKey: key,
            uploadOrder: await repo.nextUploadOrder(orderId),
            quality: quality ?? { verdict: 'unchecked' },
            createdAt: deps.now(),
          });
        });
        return uploadView(row);
      } catch (error) {
        // Nothing may stay behind for a refused or failed upload (and if this cleanup fails, the note stays
        // and the deletion job removes the files).
        const cleaned = await Promise.allSettled(files.map((file) => storage.delete(file)));
        if (cleaned.every((result) => result.status === 'fulfilled')) await settleIntent(db, files).catch(() => {});
        throw error;
      }
    },

    async removeUpload(orderId: string, uploadId: string) {
      const order = await requireOrder(orderId);
      if (!isEditable(order)) throw conflict('orderLocked');
      await releaseCheckout(order);
      const upload = await orders.findUpload(orderId, uploadId);
      if (!upload) throw notFound('photoNotFound');
      await orders.deleteUpload(upload.id);
      await Promise.all([storage.delete(upload.storageKey), storage.delete(thumbnailKey(upload.storageKey))]);
    },

    /**
     * "Zahlungspflichtig bestellen": the contract is formed here, before the payment page.
     * A second click while the first is under way, or later with the same order, gets the same session.
     */
    async checkout(orderId: string, input: CheckoutInput): Promise<{ url: string; sessionId: string }> {
      const order = await requireOrder(orderId);
      if (order.paymentStatus === 'paid' || order.paymentStatus === 'refunded') throw conflict('alreadyPaid');
      if (!isEditable(order)) throw conflict('orderLocked');
      const complete = completeSelection(input.selection, deps.capabilities);
      if (!complete.ok) throw unprocessable(complete.code);
      const selection: CompleteSelection = complete.value;
      const photoCount = await orders.uploadCount(orderId);
      if (photoCount < UPLOAD_LIMITS.minPhotos) throw unprocessable('notEnoughPhotos', { min: UPLOAD_LIMITS.minPhotos });
      const now = deps.now();
      const price = priceOrder({ package: selection.package, extras: selection.extras, campaign: deps.campaign, now });

      const reusable = (o: OrderRow) =>
        o.providerSessionId &&
        o.providerSessionUrl &&
        o.providerSessionTotalCents === price.grossCents &&
        o.email === input.email &&
        o.package === selection.package &&
        (o.providerSessionExpiresAt?.getTime() ?? 0) > now.getTime() + SESSION_REUSE_MARGIN_MS;
      if (reusable(order)) return { url: order.providerSessionUrl!, sessionId: order.providerSessionId! };

      // Claim the order for this request; a parallel click waits for the claim holder's session.
      const claimed = await db.transaction(async (tx) => {
        const repo = createOrderRepository(tx);
        const locked = await repo.lock(orderId);
        if (!locked) throw notFound('orderNotFound');
        const claimAge = locked.checkoutClaimedAt ? now.getTime() - locked.checkoutClaimedAt.getTime() : Infinity;
        if (claimAge < CHECKOUT_CLAIM_SECONDS * 1000) return false;
        await repo.update(orderId, { checkoutClaimedAt: now });
        return true;
      });
      if (!claimed) {
        for (let i = 0; i < 300; i++) {
          await new Promise((r) => setTimeout(r, 100));
          const current = await requireOrder(orderId);
          if (!current.checkoutClaimedAt && current.providerSessionUrl && current.providerSessionId) {
            return { url: current.providerSessionUrl, sessionId: current.providerSessionId };
          }
          if (!current.checkoutClaimedAt) break;
        }
        throw conflict('checkoutInProgress');
      }

      try {
        const fresh = await requireOrder(orderId);
        if (fresh.paymentStatus === 'paid') throw conflict('alreadyPaid');
        if (fresh.providerSessionId) {
          const expired = await payments.expireSession(fresh.providerSessionId);
          if (expired === 'alreadyComplete') {
            const state = await payments.retrieveSession(fresh.providerSessionId);
            if (state.paymentStatus === 'paid') throw conflict('alreadyPaid');
            // A completed but unpaid session is a pending bank debit: do not charge twice.
            throw conflict('paymentPending');
          }
        }
        const messages = ALL_MESSAGES[input.language];
        const lineItems = price.lines.map((line) => ({
          name:
            line.kind === 'package'
              ? translate(messages, `catalog.packages.${line.key}.name`) +
                (price.discountPercent ? ` (${translate(messages, 'order.summary.discountLabel', { percent: price.discountPercent })})` : '')
              : translate(messages, `catalog.extras.${line.key}.name`),
          amountCents: line.cents,
          quantity: 1,
        }));
        // Stable for a repeated click, new for each later attempt (a retry after a failed payment).
        const placed = (await orders.history(orderId)).filter((h) => h.event === 'order_placed').length;
        const attempt = createHash('sha256')
          .update(JSON.stringify([orderId, input.email, selection, price.grossCents, placed]))
          .digest('hex')
          .slice(0, 32);
        const receivedMail: DeferredMail = { kind: 'orderReceived', key: `order-received:${orderId}:${attempt}`, orderId, data: { orderId } };
        const langQuery = input.language === 'de' ? '' : `&lang=${input.language}`;
        const session = await payments.createCheckoutSession({
          orderId,
          orderNumber: fresh.orderNumber,
          email: input.email,
          language: input.language,
          lineItems,
          totalCents: price.grossCents,
          successUrl: `${deps.publicUrl}/success?order_id=${orderId}&session_id={CHECKOUT_SESSION_ID}${langQuery}`,
          cancelUrl: `${deps.publicUrl}/order/summary?checkout=cancelled${langQuery}`,
          idempotencyKey: `checkout-${attempt}`,
        });
        await db.transaction(async (tx) => {
          const repo = createOrderRepository(tx);
          await repo.update(orderId, {
            ...selectionColumns({ ...selection }),
            language: input.language,
            email: input.email,
            billingName: input.billingName ?? null,
            billingAddress: input.billingAddress ?? null,
            featureCommercialLicense: PACKAGES[selection.package].commercialLicense,
            featureHd: true,
            packageListCents: price.packageListCents,
            discountPercent: price.discountPercent,
            discountCents: price.discountCents,
            campaignId: price.discountPercent ? (deps.campaign?.id ?? null) : null,
            packageCents: price.packageCents,
            featureExtraVariantsCents: price.lines.find((l) => l.key === 'extra_variants')?.cents ?? 0,
            featureExpressDeliveryCents: price.lines.find((l) => l.key === 'express_delivery')?.cents ?? 0,
            extrasCents: price.extrasCents,
            netCents: price.netCents,
            vatCents: price.vatCents,
            taxRatePercent: price.vatRatePercent,
            totalCents: price.grossCents,
            waiverAcceptedAt: now,
            waiverTextVersion: input.waiverTextVersion,
            orderedAt: now,
            paymentProvider: payments.name,
            providerSessionId: session.id,
            providerSessionUrl: session.url,
            providerSessionTotalCents: price.grossCents,
            providerSessionExpiresAt: session.expiresAt,
            paymentStatus: fresh.paymentStatus === 'failed' ? 'pending' : fresh.paymentStatus,
            checkoutClaimedAt: null,
          });
          await repo.addHistory(orderId, { event: 'order_placed', actorType: 'customer', note: `${selection.package} ${price.grossCents}` });
          // The contract's confirmation (decisions.md section 4) is owed from this commit on.
          await deferMail(tx, receivedMail, now);
        });
        await paymentEvents.sendOwedMail(receivedMail);
        return { url: session.url, sessionId: session.id };
      } catch (error) {
        await db.transaction(async (tx) => {
          await createOrderRepository(tx).update(orderId, { checkoutClaimedAt: null });
        });
        throw error;
      }
    },

    /** Applies a verified provider event once; the same event again changes nothing (payment-events.ts). */
    applyPaymentEvent: paymentEvents.applyPaymentEvent,
    paymentEvents,

    async confirmation(orderId: string): Promise<ConfirmationView> {
      const order = await requireOrder(orderId);
      const selection = selectionOf(order);
      return {
        orderId: order.id,
        orderNumber: order.orderNumber,
        email: order.email,
        package: order.package,
        extras: selection.extras,
        totalCents: order.totalCents,
        status: order.status,
        paymentStatus: order.paymentStatus,
        paidAt: order.paidAt?.toISOString() ?? null,
        statusUrl: statusUrl(deps.publicUrl, deps.appSecret, order.id, deps.now()),
      };
    },

    /** The success page may ask us to look again at the provider; the provider's answer decides. */
    async refreshPayment(orderId: string): Promise<ConfirmationView> {
      await paymentEvents.confirmFromProvider(await requireOrder(orderId));
      return this.confirmation(orderId);
    },

    find: (orderId: string) => orders.find(orderId),
  };
}

export function thumbnailKey(key: string): string {
  return key.replace(/\.([a-z0-9]+)$/, '-thumb.$1');
}

export type OrderService = ReturnType<typeof createOrderService>;
