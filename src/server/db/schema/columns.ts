// Columns many tables share. Every point in time is stored with its time zone.
import { timestamp } from 'drizzle-orm/pg-core';

/** A point in time with its time zone. */
export const timestampTz = (name: string) => timestamp(name, { withTimezone: true });
export const createdAt = () => timestampTz('created_at').notNull().defaultNow();
export const updatedAt = () => timestampTz('updated_at').notNull().defaultNow();
