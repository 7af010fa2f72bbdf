// The order flow on the server: drafts, uploads, selections, checkout and payment events, one file each
// (drafts.ts, draft-uploads.ts, checkout.ts, confirmation.ts, payment-events.ts), put together here into the
// one service the routes use. What the parts share is in order-context.ts.
// Every price is computed on the server (checkout.ts) from the domain catalogue; the browser only chooses.
import { createCheckout } from './checkout.js';
import { createConfirmation } from './confirmation.js';
import { createDraftUploads } from './draft-uploads.js';
import { createDrafts } from './drafts.js';
import { createOrderContext, type OrderServiceDeps } from './order-context.js';

export type { ConfirmationView } from './confirmation.js';
export type { DraftView } from './drafts.js';
export { thumbnailKey, type OrderServiceDeps } from './order-context.js';

export function createOrderService(deps: OrderServiceDeps) {
  const context = createOrderContext(deps);
  const { orders, paymentEvents } = context;
  const drafts = createDrafts(context);
  const uploads = createDraftUploads(context);
  const { checkout } = createCheckout(context);
  const confirmation = createConfirmation(context);

  return {
    createDraft: drafts.createDraft,
    getDraft: drafts.getDraft,
    saveSelection: drafts.saveSelection,
    addUpload: uploads.addUpload,
    removeUpload: uploads.removeUpload,
    photoState: uploads.photoState,
    /** The photo-check job (a photo that waited for a worker): for the job runners. */
    handlers: uploads.handlers,
    checkout,

    /** Applies a verified provider event once; the same event again changes nothing (payment-events.ts). */
    applyPaymentEvent: paymentEvents.applyPaymentEvent,
    paymentEvents,

    confirmation: confirmation.confirmation,
    // Answers with this.confirmation(...): called as this object's method, as before the split.
    refreshPayment: confirmation.refreshPayment,

    find: (orderId: string) => orders.find(orderId),
  };
}

export type OrderService = ReturnType<typeof createOrderService>;
