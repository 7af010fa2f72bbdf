CREATE TABLE "invoice_counters" (
	"year" integer PRIMARY KEY NOT NULL,
	"last_number" integer DEFAULT 0 NOT NULL
);

CREATE TABLE "invoices" (
	"id" uuid PRIMARY KEY NOT NULL,
	"number" text NOT NULL,
	"year" integer NOT NULL,
	"sequence" integer NOT NULL,
	"kind" text NOT NULL,
	"order_id" uuid NOT NULL,
	"corrects_invoice_id" uuid,
	"refund_id" uuid,
	"language" text NOT NULL,
	"issued_at" timestamp with time zone NOT NULL,
	"service_date" date NOT NULL,
	"seller" jsonb NOT NULL,
	"customer" jsonb NOT NULL,
	"lines" jsonb NOT NULL,
	"net_cents" integer NOT NULL,
	"vat_cents" integer NOT NULL,
	"gross_cents" integer NOT NULL,
	"vat_rate_percent" integer NOT NULL,
	"storage_key" text,
	"retain_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "invoices_kind_check" CHECK ("invoices"."kind" in ('invoice','cancellation'))
);

CREATE TABLE "refunds" (
	"id" uuid PRIMARY KEY NOT NULL,
	"order_id" uuid NOT NULL,
	"amount_cents" integer NOT NULL,
	"reason" text,
	"status" text DEFAULT 'requested' NOT NULL,
	"provider_refund_id" text,
	"requested_by" uuid,
	"requested_at" timestamp with time zone NOT NULL,
	"confirmed_at" timestamp with time zone,
	"failure_reason" text,
	CONSTRAINT "refunds_status_check" CHECK ("refunds"."status" in ('requested','succeeded','failed')),
	CONSTRAINT "refunds_amount_check" CHECK ("refunds"."amount_cents" > 0)
);

CREATE TABLE "withdrawals" (
	"id" uuid PRIMARY KEY NOT NULL,
	"order_id" uuid,
	"name" text NOT NULL,
	"order_reference" text NOT NULL,
	"email" text NOT NULL,
	"language" text NOT NULL,
	"outcome" text NOT NULL,
	"status" text DEFAULT 'new' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "withdrawals_outcome_check" CHECK ("withdrawals"."outcome" in ('withdrawn','expired','unmatched')),
	CONSTRAINT "withdrawals_status_check" CHECK ("withdrawals"."status" in ('new','handled'))
);

ALTER TABLE "orders" ADD COLUMN "refunded_cents" integer DEFAULT 0 NOT NULL;
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE restrict ON UPDATE no action;
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE restrict ON UPDATE no action;
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_requested_by_staff_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."staff_users"("id") ON DELETE set null ON UPDATE no action;
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE set null ON UPDATE no action;
CREATE UNIQUE INDEX "invoices_number_key" ON "invoices" USING btree ("number");
CREATE UNIQUE INDEX "invoices_year_sequence_key" ON "invoices" USING btree ("year","sequence");
CREATE UNIQUE INDEX "invoices_refund_key" ON "invoices" USING btree ("refund_id");
CREATE INDEX "invoices_order_idx" ON "invoices" USING btree ("order_id");
CREATE UNIQUE INDEX "refunds_provider_refund_key" ON "refunds" USING btree ("provider_refund_id");
CREATE INDEX "refunds_order_idx" ON "refunds" USING btree ("order_id");
CREATE INDEX "withdrawals_status_idx" ON "withdrawals" USING btree ("status","created_at");