// The shop's machinery: rate-limit counters, storage writes under way, the job queue and the daily counters.
import { sql } from 'drizzle-orm';
import { bigserial, check, date, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import type { JobPayload, JobProgress } from '../../../domain/stored-json.js';
import { createdAt, timestampTz, updatedAt } from './columns.js';
import { orderRef } from './orders.js';

/** Counters for rate limits and login throttling, shared by every app process; unlogged (migration 0016). */
export const rateLimits = pgTable(
  'rate_limits',
  {
    key: text('key').primaryKey(),
    hits: integer('hits').notNull(),
    resetAt: timestampTz('reset_at').notNull(),
  },
  (t) => [index('rate_limits_reset_idx').on(t.resetAt)],
);

/** Keys written to storage before their row commits; see migrations/0007_storage_intents.sql. */
export const storageIntents = pgTable(
  'storage_intents',
  {
    key: text('key').primaryKey(),
    createdAt: timestampTz('created_at').notNull().defaultNow(),
  },
  (t) => [index('storage_intents_created_idx').on(t.createdAt)],
);

export const jobs = pgTable(
  'jobs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    queue: text('queue').notNull(),
    payload: jsonb('payload').$type<JobPayload>().notNull(),
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(5),
    runAt: timestampTz('run_at').notNull().defaultNow(),
    lockedBy: text('locked_by'),
    lockedUntil: timestampTz('locked_until'),
    progress: jsonb('progress').$type<JobProgress>(),
    lastError: text('last_error'),
    dedupeKey: text('dedupe_key'),
    orderId: orderRef('order_id', 'cascade'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    finishedAt: timestampTz('finished_at'),
  },
  (t) => [
    index('jobs_ready_idx').on(t.status, t.runAt),
    uniqueIndex('jobs_dedupe_key').on(t.queue, t.dedupeKey),
    index('jobs_order_idx').on(t.orderId),
    check('jobs_status_check', sql`${t.status} in ('pending','running','done','failed','dead')`),
  ],
);

/**
 * First-party counting (docs/rules.md §4: no analytics before consent): page views and the spec's
 * events as daily counters. No cookie, no address, no browser data, no order id: only what happened how often.
 */
export const siteMetrics = pgTable(
  'site_metrics',
  {
    day: date('day', { mode: 'string' }).notNull(),
    kind: text('kind').notNull(),
    name: text('name').notNull(),
    detail: text('detail').notNull().default(''),
    count: integer('count').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.day, t.kind, t.name, t.detail] }), check('site_metrics_kind_check', sql`${t.kind} in ('page_view','event')`)],
);
