// What the payment event operations share (payment-event-effects.ts, order-mail-senders.ts,
// payment-event-settle.ts, payment-reconciliation.ts): their dependencies, what applying an event yields, and
// what the rest of the shop does when an order's money moves.
import type { FastifyBaseLogger } from 'fastify';
import type { SiteInfo } from '../../../domain/site.js';
import type { Database, Executor } from '../../db/client.js';
import type { DeferredMail, DeferredMailSender } from '../../mail/deferred-mail.js';
import type { Mailer, SendResult } from '../../mail/mailer.js';
import type { PaymentEvent, PaymentProvider } from '../../payment-providers/provider.js';
import type { OrderMailContext } from './order-mail-data.js';
import type { OrderRow } from './order-repository.js';

/** What applying an event did, and what it owes once committed. */
export interface EventEffect {
  outcome: string;
  /** Mails the committed change owes; their jobs were recorded in the same transaction. */
  mails?: DeferredMail[];
  /** Work after the commit that may fail without harm (it is done again later on demand). */
  afterCommit?: () => Promise<void>;
}

export interface PaymentEventDeps extends OrderMailContext {
  db: Database;
  mailer: Mailer;
  payments: PaymentProvider;
  site: SiteInfo;
  /** What the rest of the shop does when an order's money moves (modules/order-lifecycle); none: nothing more. */
  lifecycle?: OrderLifecycle;
  log: FastifyBaseLogger;
}

/**
 * What the rest of the shop does when an order's money moves, declared once: modules/order-lifecycle implements
 * it, the payment events call it.
 */
export interface OrderLifecycle {
  /** Inside the payment's transaction: what must start exactly when an order is paid (invoice, seats, pictures). */
  paid(tx: Executor, order: OrderRow): Promise<void>;
  /** After the payment's commit: the invoice's signed download link for the payment mail (null: none). */
  invoiceLink(order: OrderRow): Promise<string | null>;
  /** A team order's payment confirmation: its own mail with the join link. */
  teamPaidMail(orderId: string, dedupeKey: string): Promise<SendResult | null>;
  /** Refund events (refund.created / refund.updated / refund.failed), applied inside the event's transaction. */
  refundEvent(tx: Executor, event: PaymentEvent): Promise<EventEffect>;
  /** Senders of the mails the refund events owe. */
  refundMailSenders: Record<string, DeferredMailSender>;
}
