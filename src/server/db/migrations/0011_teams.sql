-- Team orders (issue 17): a business buys seats for its people on one invoice, with one look.
-- The team order is an order row of a business buyer with seats; each member who joins gets an order row of
-- their own (paid by the team, no price of its own), so uploads, the photo gate, production, staff review,
-- results and the 30-day deletion work per member exactly as for a single customer.
ALTER TABLE "orders" ADD COLUMN "customer_kind" text NOT NULL DEFAULT 'consumer';
ALTER TABLE "orders" ADD CONSTRAINT "orders_customer_kind_check" CHECK ("customer_kind" in ('consumer','business'));
ALTER TABLE "orders" ADD COLUMN "company_vat_id" text;
ALTER TABLE "orders" ADD COLUMN "vat_treatment" text NOT NULL DEFAULT 'standard';
ALTER TABLE "orders" ADD CONSTRAINT "orders_vat_treatment_check" CHECK ("vat_treatment" in ('standard','reverse_charge'));
ALTER TABLE "orders" ADD COLUMN "seats" integer;
ALTER TABLE "orders" ADD CONSTRAINT "orders_seats_check" CHECK ("seats" is null or "seats" between 1 and 500);
ALTER TABLE "orders" ADD COLUMN "team_order_id" uuid REFERENCES "orders"("id") ON DELETE SET NULL;
CREATE INDEX "orders_team_order_idx" ON "orders" ("team_order_id") WHERE "team_order_id" IS NOT NULL;

-- The team's join link: only its hash is stored; revoking it (or making a new one) ends the old one.
CREATE TABLE "team_links" (
  "id" uuid PRIMARY KEY,
  "team_order_id" uuid NOT NULL REFERENCES "orders"("id") ON DELETE CASCADE,
  "token_hash" text NOT NULL,
  "created_at" timestamp with time zone NOT NULL DEFAULT now(),
  "revoked_at" timestamp with time zone
);
CREATE UNIQUE INDEX "team_links_token_hash_key" ON "team_links" ("token_hash");
CREATE INDEX "team_links_team_idx" ON "team_links" ("team_order_id");

-- Invitations the buyer sent by e-mail (the mail carries the team's link) and their reminders.
CREATE TABLE "team_invites" (
  "id" uuid PRIMARY KEY,
  "team_order_id" uuid NOT NULL REFERENCES "orders"("id") ON DELETE CASCADE,
  "email" text NOT NULL,
  "created_at" timestamp with time zone NOT NULL DEFAULT now(),
  "reminded_at" timestamp with time zone
);
CREATE UNIQUE INDEX "team_invites_team_email_key" ON "team_invites" ("team_order_id", lower("email"));
