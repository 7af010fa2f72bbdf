// The customer deletes their photos early (before the deletion job would): uploads and results, files and rows.
import { purgeOrderPhotos } from '../retention/purge.js';
import type { CustomerOrderContext } from './customer-order-context.js';
import type { OrderStatusView } from './order-status-view.js';

export function createPhotoDeletion(ctx: CustomerOrderContext, { view, viewById }: OrderStatusView) {
  const { deps, requireOrder } = ctx;
  const { db, storage } = deps;

  /** The customer deletes their photos early: uploads and results, files and rows, for good. */
  async function deletePhotos(orderId: string) {
    const order = await requireOrder(orderId);
    if (order.photosDeletedAt) return view(order);
    await purgeOrderPhotos({ db, storage, now: deps.now }, orderId, { reason: 'customer', actorType: 'customer' });
    return viewById(orderId);
  }

  return { deletePhotos };
}
