-- The back office searches orders by a part of the order number or e-mail address (ILIKE '%…%'): a B-tree
-- cannot serve that, so at a year of orders every search read the whole table. Trigram indexes can (pg_trgm
-- ships with PostgreSQL's contrib and with PGlite; it is a trusted extension the database owner may create).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX IF NOT EXISTS "orders_email_trgm_idx" ON "orders" USING gin ("email" gin_trgm_ops);
CREATE INDEX IF NOT EXISTS "orders_order_number_trgm_idx" ON "orders" USING gin ("order_number" gin_trgm_ops);
