CREATE TABLE "sandbox_checkout_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"order_id" uuid NOT NULL,
	"amount_total" integer NOT NULL,
	"currency" text NOT NULL,
	"line_items" jsonb NOT NULL,
	"customer_email" text,
	"locale" text NOT NULL,
	"metadata" jsonb NOT NULL,
	"client_reference_id" text,
	"status" text DEFAULT 'open' NOT NULL,
	"payment_status" text DEFAULT 'unpaid' NOT NULL,
	"success_url" text NOT NULL,
	"cancel_url" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "sandbox_checkout_sessions_status_check" CHECK ("sandbox_checkout_sessions"."status" in ('open','complete','expired')),
	CONSTRAINT "sandbox_checkout_sessions_payment_check" CHECK ("sandbox_checkout_sessions"."payment_status" in ('unpaid','paid'))
);

ALTER TABLE "orders" ADD COLUMN "provider_session_url" text;
ALTER TABLE "orders" ADD COLUMN "provider_session_total_cents" integer;
ALTER TABLE "orders" ADD COLUMN "provider_session_expires_at" timestamp with time zone;
ALTER TABLE "orders" ADD COLUMN "payment_failed_at" timestamp with time zone;
ALTER TABLE "orders" ADD COLUMN "checkout_claimed_at" timestamp with time zone;
ALTER TABLE "sandbox_checkout_sessions" ADD CONSTRAINT "sandbox_checkout_sessions_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;
CREATE INDEX "sandbox_checkout_sessions_order_idx" ON "sandbox_checkout_sessions" USING btree ("order_id");