// What the order operations share (drafts.ts, draft-uploads.ts, checkout.ts, confirmation.ts): their
// dependencies, one repository and one payment event service for all of them, the order lookup, the closing
// of an open payment page, and the rules more than one operation applies.
import type { FastifyBaseLogger } from 'fastify';
import type { Campaign } from '../../../domain/campaign.js';
import type { Capabilities } from '../../../domain/capabilities.js';
import type { ProductionMode } from '../../../domain/order-state.js';
import type { Selection } from '../../../domain/order-selection.js';
import type { UploadView } from '../../../domain/order-views.js';
import type { SiteInfo } from '../../../domain/site.js';
import type { Database } from '../../db/client.js';
import { conflict, notFound } from '../../http/errors.js';
import type { Mailer } from '../../mail/mailer.js';
import type { PaymentProvider } from '../../payment-providers/provider.js';
import type { Storage } from '../../storage/storage.js';
import type { QualityReport } from '../../../studio/quality-gate.js';
import { photoQualityView } from '../production/photo-quality.js';
import { createOrderRepository, type OrderRepository, type OrderRow, type UploadRow } from './order-repository.js';
import type { OrderLifecycle } from './payment-event-context.js';
import { createPaymentEventService, type PaymentEventService } from './payment-events.js';

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
  /**
   * Uploads this process decodes and checks itself at once (UPLOAD_INLINE_CHECKS); beyond that a photo's check
   * goes to a worker. Two cores decode about five 12 MP photos a second: fifty customers sending three photos
   * at once waited half a minute for their answers when every process checked every photo itself.
   */
  inlineUploads: number;
  /** What the rest of the shop does when an order's money moves (modules/order-lifecycle). */
  lifecycle?: OrderLifecycle;
  /** Who makes the pictures of a new order (staff may change it per order). */
  defaultProductionMode?: ProductionMode;
  /** What the shop's pictures can be (src/server/capabilities.ts): without new outfits none is taken. */
  capabilities: Capabilities;
  now: () => Date;
  log: FastifyBaseLogger;
}

export function selectionColumns(selection: Selection) {
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

/**
 * Drafts can change until they are paid; a cancelled or paid order is final. The database function
 * photo_check_room (migration 0018) applies the same rule in SQL; photo-checks.test.ts compares the two.
 */
export function isEditable(order: OrderRow): boolean {
  return order.status === 'created' && order.paymentStatus !== 'paid' && order.paymentStatus !== 'refunded';
}

export function thumbnailKey(key: string): string {
  return key.replace(/\.([a-z0-9]+)$/, '-thumb.$1');
}

/** Made once per order service; every operation gets the same one. */
export interface OrderContext {
  deps: OrderServiceDeps;
  /** On deps.db, outside any transaction (inside one: createOrderRepository(tx)). */
  orders: OrderRepository;
  /** Also the service's applyPaymentEvent and paymentEvents; checkout and the success page use it too. */
  paymentEvents: PaymentEventService;
  /** The order, or 404 orderNotFound. */
  requireOrder(orderId: string): Promise<OrderRow>;
  /** A photo as the wizard shows it, with signed links to the file and its thumbnail. */
  uploadView(upload: UploadRow): Promise<UploadView>;
  releaseCheckout(order: OrderRow): Promise<void>;
}

export function createOrderContext(deps: OrderServiceDeps): OrderContext {
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

  /**
   * A placed order changes only after its payment page is closed: the open session is expired at the
   * provider first, so the contract that can be paid is always the one stored (docs/rules.md §4).
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

  return { deps, orders, paymentEvents, requireOrder, uploadView, releaseCheckout };
}
