// Staff accounts and their sessions (the back office's sign-in).
import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, timestampTz, updatedAt } from './columns.js';

/** A column naming a staff account; `onDelete` says what deleting the account does to the row. */
export function staffRef(name: string, onDelete: 'cascade' | 'set null') {
  return uuid(name).references(() => staffUsers.id, { onDelete });
}

export const staffUsers = pgTable(
  'staff_users',
  {
    id: uuid('id').primaryKey(),
    email: text('email').notNull(),
    name: text('name'),
    passwordHash: text('password_hash').notNull(),
    role: text('role').notNull().default('staff'),
    failedLogins: integer('failed_logins').notNull().default(0),
    lockedUntil: timestampTz('locked_until'),
    lastLoginAt: timestampTz('last_login_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('staff_users_email_key').on(t.email), check('staff_users_role_check', sql`${t.role} in ('staff','admin')`)],
);

export const staffSessions = pgTable(
  'staff_sessions',
  {
    // SHA-256 of the cookie token: a leaked table does not give working sessions.
    tokenHash: text('token_hash').primaryKey(),
    staffUserId: staffRef('staff_user_id', 'cascade').notNull(),
    csrfToken: text('csrf_token').notNull(),
    ip: text('ip'),
    userAgent: text('user_agent'),
    createdAt: createdAt(),
    lastSeenAt: timestampTz('last_seen_at').notNull().defaultNow(),
    expiresAt: timestampTz('expires_at').notNull(),
  },
  (t) => [index('staff_sessions_user_idx').on(t.staffUserId), index('staff_sessions_expires_idx').on(t.expiresAt)],
);
