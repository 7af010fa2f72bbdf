// The success page's view of an order after the provider's payment page, and its request to look again.
import { selectionOf } from './order-mail-data.js';
import { statusUrl } from './order-tokens.js';
import type { OrderContext } from './order-context.js';

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

export function createConfirmation(ctx: OrderContext) {
  const { deps, paymentEvents, requireOrder } = ctx;

  return {
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
        statusUrl: statusUrl(deps.publicUrl, deps.appSecret, order.id, deps.now(), order.language),
      };
    },

    /** The success page may ask us to look again at the provider; the provider's answer decides. */
    async refreshPayment(orderId: string): Promise<ConfirmationView> {
      await paymentEvents.confirmFromProvider(await requireOrder(orderId));
      return this.confirmation(orderId);
    },
  };
}
