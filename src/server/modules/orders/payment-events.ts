// Verified payment provider events, applied exactly once and never zero times: the event's row and
// everything it changes (order, history, invoice number, studio job, the mails it owes) are written in one
// transaction. A crash or a lost database connection anywhere before the commit leaves no trace, so the
// provider's retry applies the event; after the commit the retry is a duplicate and changes nothing.
// Mails go out right after the commit and, should that fail, from their job (mail/deferred-mail.ts); the
// order mails' senders live in order-mail-senders.ts, the order confirmation of checkout included.
// One part a file (payment-event-effects.ts, payment-event-settle.ts, order-mail-senders.ts,
// payment-reconciliation.ts), put together here into the one service the order flow uses. What the parts
// share is in payment-event-context.ts.
import { createOrderMailSenders } from './order-mail-senders.js';
import type { PaymentEventDeps } from './payment-event-context.js';
import { createPaymentEventEffects } from './payment-event-effects.js';
import { createEventSettlement } from './payment-event-settle.js';
import { createReconciliation } from './payment-reconciliation.js';

export function createPaymentEventService(deps: PaymentEventDeps) {
  const senders = createOrderMailSenders(deps);
  const { settle, sendOwedMail } = createEventSettlement(deps, senders);
  const { markPaid, applyPaymentEvent } = createPaymentEventEffects(deps, settle);
  const { confirmFromProvider, reconcileOpenCheckouts } = createReconciliation(deps, markPaid, settle);

  return {
    /** The job handlers' senders (the deferred mail queue). */
    mailSenders: senders,
    applyPaymentEvent,
    confirmFromProvider,
    sendOwedMail,
    reconcileOpenCheckouts,
  };
}

export type PaymentEventService = ReturnType<typeof createPaymentEventService>;
