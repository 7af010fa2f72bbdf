// What a customer sees and does after paying: tracking, the status page, downloads, revisions, deletion, one
// part a file (tracking.ts, order-status-view.ts, results.ts, revision-requests.ts, photo-deletion.ts), put
// together here into the one service the routes use. What the parts share is in customer-order-context.ts.
import { createOrderRepository, type OrderRow } from '../orders/order-repository.js';
import { createCustomerOrderContext, type CustomerOrderDeps } from './customer-order-context.js';
import { createOrderStatusView } from './order-status-view.js';
import { createPhotoDeletion } from './photo-deletion.js';
import { createResults } from './results.js';
import { createRevisionRequests } from './revision-requests.js';
import { createTracking } from './tracking.js';

export function createCustomerOrderService(deps: CustomerOrderDeps) {
  const context = createCustomerOrderContext(deps);
  const statusView = createOrderStatusView(context);
  const tracking = createTracking(context);
  const results = createResults(context, statusView);
  const { requestRevision } = createRevisionRequests(context, statusView);
  const { deletePhotos } = createPhotoDeletion(context, statusView);

  return {
    async find(orderId: string): Promise<OrderRow | null> {
      return createOrderRepository(deps.db).find(orderId);
    },
    mailStatusLink: tracking.mailStatusLink,
    trackingAttempt: tracking.trackingAttempt,
    view: statusView.view,

    async invoiceFile(orderId: string, invoiceId: string) {
      return deps.invoices.file(orderId, invoiceId);
    },

    viewById: statusView.viewById,
    resultForDownload: results.resultForDownload,
    resultsZip: results.resultsZip,
    setFavourite: results.setFavourite,
    requestRevision,
    deletePhotos,
  };
}

export type CustomerOrderService = ReturnType<typeof createCustomerOrderService>;
