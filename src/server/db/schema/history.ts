// What happened: each order's history, and the audit log of what staff and the system did.
import { sql } from 'drizzle-orm';
import { bigserial, check, index, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import type { AuditDetails } from '../../../domain/stored-json.js';
import { createdAt } from './columns.js';
import { orderRef } from './orders.js';
import { staffRef } from './staff.js';

export const orderHistory = pgTable(
  'order_history',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    orderId: orderRef('order_id', 'cascade').notNull(),
    event: text('event').notNull(),
    fromStatus: text('from_status'),
    toStatus: text('to_status'),
    actorType: text('actor_type').notNull(),
    actorId: text('actor_id'),
    note: text('note'),
    createdAt: createdAt(),
  },
  (t) => [
    index('order_history_order_idx').on(t.orderId, t.createdAt),
    check('order_history_actor_check', sql`${t.actorType} in ('system','staff','customer')`),
  ],
);

export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    actorType: text('actor_type').notNull(),
    staffUserId: staffRef('staff_user_id', 'set null'),
    action: text('action').notNull(),
    orderId: orderRef('order_id', 'set null'),
    details: jsonb('details').$type<AuditDetails>(),
    ip: text('ip'),
    createdAt: createdAt(),
  },
  (t) => [index('audit_log_order_idx').on(t.orderId, t.createdAt), index('audit_log_created_idx').on(t.createdAt)],
);
