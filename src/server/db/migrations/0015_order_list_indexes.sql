-- The back office lists placed orders newest first, all or by status, a page at a time, with how many match
-- (up to a limit). These partial indexes hold exactly those rows in that order, so a page and the count are
-- read from the index alone instead of sorting or scanning a year of orders.
CREATE INDEX IF NOT EXISTS "orders_placed_idx" ON "orders" ("created_at" DESC, "id" DESC) WHERE "ordered_at" IS NOT NULL;
CREATE INDEX IF NOT EXISTS "orders_placed_status_idx" ON "orders" ("status", "created_at" DESC, "id" DESC) WHERE "ordered_at" IS NOT NULL;
