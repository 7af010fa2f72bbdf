// Money and contracts: the payment provider's events, the sandbox's checkout sessions, invoices, refunds and
// withdrawals.
import { sql } from 'drizzle-orm';
import { bigserial, check, date, index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { InvoiceLine, InvoiceParty, InvoiceSeller } from '../../../domain/invoice.js';
import type { ProviderEventPayload, SandboxLineItem, SandboxMetadata } from '../../../domain/stored-json.js';
import { createdAt, timestampTz } from './columns.js';
import { orderRef } from './orders.js';
import { staffRef } from './staff.js';

export const paymentEvents = pgTable(
  'payment_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    provider: text('provider').notNull(),
    eventId: text('event_id').notNull(),
    type: text('type').notNull(),
    orderId: orderRef('order_id', 'set null'),
    payload: jsonb('payload').$type<ProviderEventPayload>().notNull(),
    receivedAt: timestampTz('received_at').notNull().defaultNow(),
    processedAt: timestampTz('processed_at'),
    outcome: text('outcome'),
  },
  (t) => [
    uniqueIndex('payment_events_provider_event_key').on(t.provider, t.eventId),
    index('payment_events_order_idx').on(t.orderId),
  ],
);

/** Checkout sessions of the built-in sandbox payment provider (test mode only). */
export const sandboxCheckoutSessions = pgTable(
  'sandbox_checkout_sessions',
  {
    id: text('id').primaryKey(),
    orderId: orderRef('order_id', 'cascade').notNull(),
    amountTotal: integer('amount_total').notNull(),
    currency: text('currency').notNull(),
    lineItems: jsonb('line_items').$type<SandboxLineItem[]>().notNull(),
    customerEmail: text('customer_email'),
    locale: text('locale').notNull(),
    metadata: jsonb('metadata').$type<SandboxMetadata>().notNull(),
    clientReferenceId: text('client_reference_id'),
    status: text('status').notNull().default('open'),
    paymentStatus: text('payment_status').notNull().default('unpaid'),
    successUrl: text('success_url').notNull(),
    cancelUrl: text('cancel_url').notNull(),
    createdAt: createdAt(),
    expiresAt: timestampTz('expires_at').notNull(),
  },
  (t) => [
    index('sandbox_checkout_sessions_order_idx').on(t.orderId),
    check('sandbox_checkout_sessions_status_check', sql`${t.status} in ('open','complete','expired')`),
    check('sandbox_checkout_sessions_payment_check', sql`${t.paymentStatus} in ('unpaid','paid')`),
  ],
);

/** The last invoice number of each year: incremented in the payment's transaction, so numbers have no gaps. */
export const invoiceCounters = pgTable('invoice_counters', {
  year: integer('year').primaryKey(),
  lastNumber: integer('last_number').notNull().default(0),
});

/**
 * Invoices and cancellation invoices (Stornorechnungen): every field of § 14 (4) UStG as issued, the seller
 * included, so a later change of the site settings never changes an issued invoice. Kept 8 years after the
 * order's photos are deleted (retain_until), apart from the photos.
 */
export const invoices = pgTable(
  'invoices',
  {
    id: uuid('id').primaryKey(),
    number: text('number').notNull(),
    year: integer('year').notNull(),
    sequence: integer('sequence').notNull(),
    kind: text('kind').notNull(),
    orderId: orderRef('order_id', 'restrict').notNull(),
    correctsInvoiceId: uuid('corrects_invoice_id'),
    refundId: uuid('refund_id'),
    language: text('language').notNull(),
    issuedAt: timestampTz('issued_at').notNull(),
    serviceDate: date('service_date', { mode: 'string' }).notNull(),
    seller: jsonb('seller').$type<InvoiceSeller>().notNull(),
    customer: jsonb('customer').$type<InvoiceParty>().notNull(),
    lines: jsonb('lines').$type<InvoiceLine[]>().notNull(),
    netCents: integer('net_cents').notNull(),
    vatCents: integer('vat_cents').notNull(),
    grossCents: integer('gross_cents').notNull(),
    vatRatePercent: integer('vat_rate_percent').notNull(),
    storageKey: text('storage_key'),
    retainUntil: timestampTz('retain_until'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('invoices_number_key').on(t.number),
    uniqueIndex('invoices_year_sequence_key').on(t.year, t.sequence),
    uniqueIndex('invoices_refund_key').on(t.refundId),
    index('invoices_order_idx').on(t.orderId),
    check('invoices_kind_check', sql`${t.kind} in ('invoice','cancellation')`),
  ],
);

/** Refunds staff ask the payment provider for; only the provider's event makes one succeeded. */
export const refunds = pgTable(
  'refunds',
  {
    id: uuid('id').primaryKey(),
    orderId: orderRef('order_id', 'restrict').notNull(),
    amountCents: integer('amount_cents').notNull(),
    /** A team order's unused seats this refund gives back (taken from the team while it stands). */
    seats: integer('seats'),
    reason: text('reason'),
    status: text('status').notNull().default('requested'),
    providerRefundId: text('provider_refund_id'),
    requestedBy: staffRef('requested_by', 'set null'),
    requestedAt: timestampTz('requested_at').notNull(),
    confirmedAt: timestampTz('confirmed_at'),
    failureReason: text('failure_reason'),
  },
  (t) => [
    uniqueIndex('refunds_provider_refund_key').on(t.providerRefundId),
    index('refunds_order_idx').on(t.orderId),
    check('refunds_status_check', sql`${t.status} in ('requested','succeeded','failed')`),
    check('refunds_amount_check', sql`${t.amountCents} > 0`),
    check('refunds_seats_check', sql`${t.seats} is null or ${t.seats} > 0`),
  ],
);

/** Declarations of withdrawal made with the "Vertrag widerrufen" function (§ 356a BGB), with or without a matching order. */
export const withdrawals = pgTable(
  'withdrawals',
  {
    id: uuid('id').primaryKey(),
    orderId: orderRef('order_id', 'set null'),
    name: text('name').notNull(),
    orderReference: text('order_reference').notNull(),
    email: text('email').notNull(),
    language: text('language').notNull(),
    /** What the receipt told the customer: the right exists, it expired (waiver, fully performed), or no order matched. */
    outcome: text('outcome').notNull(),
    status: text('status').notNull().default('new'),
    createdAt: createdAt(),
  },
  (t) => [
    index('withdrawals_status_idx').on(t.status, t.createdAt),
    check('withdrawals_outcome_check', sql`${t.outcome} in ('withdrawn','expired','late','unpaid','unmatched')`),
    check('withdrawals_status_check', sql`${t.status} in ('new','handled')`),
  ],
);
