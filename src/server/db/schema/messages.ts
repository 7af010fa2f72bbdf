// Messages: what customers send through the contact form, and every mail the shop sends.
import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, timestampTz } from './columns.js';
import { orderRef } from './orders.js';

export const contactMessages = pgTable(
  'contact_messages',
  {
    id: uuid('id').primaryKey(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    message: text('message').notNull(),
    language: text('language').notNull().default('de'),
    status: text('status').notNull().default('new'),
    createdAt: createdAt(),
  },
  (t) => [index('contact_messages_status_idx').on(t.status, t.createdAt), check('contact_messages_status_check', sql`${t.status} in ('new','read','answered')`)],
);

export const outgoingMail = pgTable(
  'outgoing_mail',
  {
    id: uuid('id').primaryKey(),
    template: text('template').notNull(),
    language: text('language').notNull(),
    toAddress: text('to_address').notNull(),
    fromAddress: text('from_address').notNull(),
    subject: text('subject').notNull(),
    html: text('html').notNull(),
    text: text('text').notNull(),
    orderId: orderRef('order_id', 'set null'),
    // Prevents the same mail for the same occasion going out twice.
    dedupeKey: text('dedupe_key'),
    transport: text('transport').notNull(),
    status: text('status').notNull(),
    providerMessageId: text('provider_message_id'),
    error: text('error'),
    createdAt: createdAt(),
    /** When the last attempt started; a 'sending' row older than the mailer's stale limit is claimed again. */
    attemptedAt: timestampTz('attempted_at').notNull().defaultNow(),
    sentAt: timestampTz('sent_at'),
  },
  (t) => [
    uniqueIndex('outgoing_mail_dedupe_key').on(t.dedupeKey),
    index('outgoing_mail_created_idx').on(t.createdAt),
    index('outgoing_mail_order_idx').on(t.orderId),
    check('outgoing_mail_status_check', sql`${t.status} in ('sending','sent','outbox','failed')`),
    check('outgoing_mail_transport_check', sql`${t.transport} in ('smtp','outbox')`),
  ],
);
