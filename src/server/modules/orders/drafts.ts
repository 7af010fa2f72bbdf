// The wizard's draft: a new order with its first choices, the draft as the wizard shows it, and later choices.
import { randomBytes, randomUUID } from 'node:crypto';
import type { Language } from '../../../domain/catalog.js';
import { orderNumberFromBytes } from '../../../domain/order-number.js';
import { PHOTO_CONSENT_VERSION, deliverableSelection, type Selection } from '../../../domain/order-selection.js';
import type { PhotoCheckView, UploadView } from '../../../domain/order-views.js';
import { conflict } from '../../http/errors.js';
import type { OrderRow } from './order-repository.js';
import { selectionOf } from './order-mail-data.js';
import { checkView } from './draft-uploads.js';
import { isEditable, selectionColumns, type OrderContext } from './order-context.js';

export interface DraftView {
  orderId: string;
  orderNumber: string;
  status: string;
  paymentStatus: string;
  language: string;
  email: string | null;
  selection: Selection;
  uploads: UploadView[];
  /** Photos received while the shop was busy, still waiting for their check. */
  checking: PhotoCheckView[];
  editable: boolean;
}

export function createDrafts(ctx: OrderContext) {
  const { deps, orders, requireOrder, uploadView, releaseCheckout } = ctx;

  /** A new order has no photos yet: its view needs no look at them (two round trips fewer per draft in a rush). */
  async function draftView(order: OrderRow, isNew = false): Promise<DraftView> {
    const uploads = isNew ? [] : await orders.uploads(order.id);
    return {
      orderId: order.id,
      orderNumber: order.orderNumber,
      status: order.status,
      paymentStatus: order.paymentStatus,
      language: order.language,
      email: order.email,
      selection: selectionOf(order),
      uploads: await Promise.all(uploads.map(uploadView)),
      checking: isNew ? [] : (await orders.photoChecks(order.id, 'checking')).map(checkView),
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

  return {
    async createDraft(input: { language: Language; selection: Selection }) {
      const order = await createOrderRow(input.language, deliverableSelection(input.selection, deps.capabilities));
      await orders.addHistory(order.id, { event: 'order_created', toStatus: 'created', actorType: 'customer' });
      return draftView(order, true);
    },

    async getDraft(orderId: string) {
      return draftView(await requireOrder(orderId));
    },

    async saveSelection(orderId: string, language: Language, sent: Selection) {
      const selection = deliverableSelection(sent, deps.capabilities);
      const order = await requireOrder(orderId);
      if (!isEditable(order)) throw conflict('orderLocked');
      // A team's look is the buyer's: a member's order (or the team order) takes no other choices.
      if (order.teamOrderId || order.seats !== null) throw conflict('teamLook');
      const same = (a: Selection, b: Selection) =>
        JSON.stringify({ ...a, extras: [...a.extras].sort() }) === JSON.stringify({ ...b, extras: [...new Set(b.extras)].sort() });
      if (same(selectionOf(order), selection) && order.language === language) return draftView(order);
      await releaseCheckout(order);
      return draftView(await orders.update(orderId, { language, ...selectionColumns(selection) }));
    },
  };
}
