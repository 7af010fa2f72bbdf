CREATE TABLE "audit_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"actor_type" text NOT NULL,
	"staff_user_id" uuid,
	"action" text NOT NULL,
	"order_id" uuid,
	"details" jsonb,
	"ip" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);

CREATE TABLE "contact_messages" (
	"id" uuid PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"message" text NOT NULL,
	"language" text DEFAULT 'de' NOT NULL,
	"status" text DEFAULT 'new' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "contact_messages_status_check" CHECK ("contact_messages"."status" in ('new','read','answered'))
);

CREATE TABLE "generated_images" (
	"id" uuid PRIMARY KEY NOT NULL,
	"order_id" uuid NOT NULL,
	"file_name" text NOT NULL,
	"file_size" integer NOT NULL,
	"mime_type" text NOT NULL,
	"width" integer,
	"height" integer,
	"storage_key" text NOT NULL,
	"generation_type" text NOT NULL,
	"generation_key" text,
	"uploaded_by" uuid,
	"status" text DEFAULT 'draft' NOT NULL,
	"variant" jsonb,
	"published_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "generated_images_status_check" CHECK ("generated_images"."status" in ('draft','active','archived','deleted')),
	CONSTRAINT "generated_images_type_check" CHECK ("generated_images"."generation_type" in ('admin_upload','studio','external'))
);

CREATE TABLE "image_downloads" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"order_id" uuid NOT NULL,
	"generated_image_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"downloaded_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "image_downloads_kind_check" CHECK ("image_downloads"."kind" in ('single','zip'))
);

CREATE TABLE "jobs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"queue" text NOT NULL,
	"payload" jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"max_attempts" integer DEFAULT 5 NOT NULL,
	"run_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_by" text,
	"locked_until" timestamp with time zone,
	"progress" jsonb,
	"last_error" text,
	"dedupe_key" text,
	"order_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "jobs_status_check" CHECK ("jobs"."status" in ('pending','running','done','failed','dead'))
);

CREATE TABLE "order_history" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"order_id" uuid NOT NULL,
	"event" text NOT NULL,
	"from_status" text,
	"to_status" text,
	"actor_type" text NOT NULL,
	"actor_id" text,
	"note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "order_history_actor_check" CHECK ("order_history"."actor_type" in ('system','staff','customer'))
);

CREATE TABLE "order_uploads" (
	"id" uuid PRIMARY KEY NOT NULL,
	"order_id" uuid NOT NULL,
	"file_name" text NOT NULL,
	"file_size" integer NOT NULL,
	"mime_type" text NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"storage_key" text NOT NULL,
	"upload_order" integer NOT NULL,
	"quality" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);

CREATE TABLE "orders" (
	"id" uuid PRIMARY KEY NOT NULL,
	"order_number" text NOT NULL,
	"status" text DEFAULT 'created' NOT NULL,
	"payment_status" text DEFAULT 'pending' NOT NULL,
	"language" text DEFAULT 'de' NOT NULL,
	"email" text,
	"first_name" text,
	"last_name" text,
	"phone" text,
	"billing_name" text,
	"billing_address" text,
	"gender" text,
	"style_base" text,
	"package" text,
	"refine_location" text,
	"refine_outfit" text,
	"feature_extra_variants" boolean DEFAULT false NOT NULL,
	"feature_express_delivery" boolean DEFAULT false NOT NULL,
	"feature_hd" boolean DEFAULT true NOT NULL,
	"feature_commercial_license" boolean DEFAULT false NOT NULL,
	"package_list_cents" integer,
	"discount_percent" integer DEFAULT 0 NOT NULL,
	"discount_cents" integer DEFAULT 0 NOT NULL,
	"campaign_id" text,
	"package_cents" integer,
	"feature_extra_variants_cents" integer DEFAULT 0 NOT NULL,
	"feature_express_delivery_cents" integer DEFAULT 0 NOT NULL,
	"extras_cents" integer DEFAULT 0 NOT NULL,
	"net_cents" integer,
	"vat_cents" integer,
	"tax_rate_percent" integer DEFAULT 19 NOT NULL,
	"total_cents" integer,
	"photo_consent_at" timestamp with time zone,
	"photo_consent_version" text,
	"waiver_accepted_at" timestamp with time zone,
	"waiver_text_version" text,
	"ordered_at" timestamp with time zone,
	"payment_provider" text,
	"provider_session_id" text,
	"provider_payment_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"paid_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"photos_delete_after" timestamp with time zone,
	"photos_deleted_at" timestamp with time zone,
	CONSTRAINT "orders_status_check" CHECK ("orders"."status" in ('created','paid','in_progress','completed','cancelled')),
	CONSTRAINT "orders_payment_status_check" CHECK ("orders"."payment_status" in ('pending','paid','failed','refunded')),
	CONSTRAINT "orders_language_check" CHECK ("orders"."language" in ('de','en','es')),
	CONSTRAINT "orders_gender_check" CHECK ("orders"."gender" is null or "orders"."gender" in ('male','female','diverse')),
	CONSTRAINT "orders_package_check" CHECK ("orders"."package" is null or "orders"."package" in ('basic','pro','premium')),
	CONSTRAINT "orders_money_check" CHECK ("orders"."total_cents" is null or "orders"."total_cents" >= 0)
);

CREATE TABLE "outgoing_mail" (
	"id" uuid PRIMARY KEY NOT NULL,
	"template" text NOT NULL,
	"language" text NOT NULL,
	"to_address" text NOT NULL,
	"from_address" text NOT NULL,
	"subject" text NOT NULL,
	"html" text NOT NULL,
	"text" text NOT NULL,
	"order_id" uuid,
	"dedupe_key" text,
	"transport" text NOT NULL,
	"status" text NOT NULL,
	"provider_message_id" text,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	CONSTRAINT "outgoing_mail_status_check" CHECK ("outgoing_mail"."status" in ('sending','sent','outbox','failed')),
	CONSTRAINT "outgoing_mail_transport_check" CHECK ("outgoing_mail"."transport" in ('smtp','outbox'))
);

CREATE TABLE "payment_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"event_id" text NOT NULL,
	"type" text NOT NULL,
	"order_id" uuid,
	"payload" jsonb NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"processed_at" timestamp with time zone,
	"outcome" text
);

CREATE TABLE "rate_limits" (
	"key" text PRIMARY KEY NOT NULL,
	"hits" integer NOT NULL,
	"reset_at" timestamp with time zone NOT NULL
);

CREATE TABLE "revision_requests" (
	"id" uuid PRIMARY KEY NOT NULL,
	"order_id" uuid NOT NULL,
	"message" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"resolved_at" timestamp with time zone,
	CONSTRAINT "revision_requests_status_check" CHECK ("revision_requests"."status" in ('open','done'))
);

CREATE TABLE "staff_sessions" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"staff_user_id" uuid NOT NULL,
	"csrf_token" text NOT NULL,
	"ip" text,
	"user_agent" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);

CREATE TABLE "staff_users" (
	"id" uuid PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"name" text,
	"password_hash" text NOT NULL,
	"role" text DEFAULT 'staff' NOT NULL,
	"failed_logins" integer DEFAULT 0 NOT NULL,
	"locked_until" timestamp with time zone,
	"last_login_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "staff_users_role_check" CHECK ("staff_users"."role" in ('staff','admin'))
);

ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_staff_user_id_staff_users_id_fk" FOREIGN KEY ("staff_user_id") REFERENCES "public"."staff_users"("id") ON DELETE set null ON UPDATE no action;
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE set null ON UPDATE no action;
ALTER TABLE "generated_images" ADD CONSTRAINT "generated_images_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;
ALTER TABLE "generated_images" ADD CONSTRAINT "generated_images_uploaded_by_staff_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."staff_users"("id") ON DELETE set null ON UPDATE no action;
ALTER TABLE "image_downloads" ADD CONSTRAINT "image_downloads_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;
ALTER TABLE "image_downloads" ADD CONSTRAINT "image_downloads_generated_image_id_generated_images_id_fk" FOREIGN KEY ("generated_image_id") REFERENCES "public"."generated_images"("id") ON DELETE cascade ON UPDATE no action;
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;
ALTER TABLE "order_history" ADD CONSTRAINT "order_history_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;
ALTER TABLE "order_uploads" ADD CONSTRAINT "order_uploads_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;
ALTER TABLE "outgoing_mail" ADD CONSTRAINT "outgoing_mail_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE set null ON UPDATE no action;
ALTER TABLE "payment_events" ADD CONSTRAINT "payment_events_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE set null ON UPDATE no action;
ALTER TABLE "revision_requests" ADD CONSTRAINT "revision_requests_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;
ALTER TABLE "staff_sessions" ADD CONSTRAINT "staff_sessions_staff_user_id_staff_users_id_fk" FOREIGN KEY ("staff_user_id") REFERENCES "public"."staff_users"("id") ON DELETE cascade ON UPDATE no action;
CREATE INDEX "audit_log_order_idx" ON "audit_log" USING btree ("order_id","created_at");
CREATE INDEX "audit_log_created_idx" ON "audit_log" USING btree ("created_at");
CREATE INDEX "contact_messages_status_idx" ON "contact_messages" USING btree ("status","created_at");
CREATE INDEX "generated_images_order_idx" ON "generated_images" USING btree ("order_id","created_at");
CREATE UNIQUE INDEX "generated_images_storage_key" ON "generated_images" USING btree ("storage_key");
CREATE UNIQUE INDEX "generated_images_generation_key" ON "generated_images" USING btree ("order_id","generation_key");
CREATE INDEX "image_downloads_image_idx" ON "image_downloads" USING btree ("generated_image_id");
CREATE INDEX "jobs_ready_idx" ON "jobs" USING btree ("status","run_at");
CREATE UNIQUE INDEX "jobs_dedupe_key" ON "jobs" USING btree ("queue","dedupe_key");
CREATE INDEX "jobs_order_idx" ON "jobs" USING btree ("order_id");
CREATE INDEX "order_history_order_idx" ON "order_history" USING btree ("order_id","created_at");
CREATE INDEX "order_uploads_order_idx" ON "order_uploads" USING btree ("order_id","upload_order");
CREATE UNIQUE INDEX "order_uploads_storage_key" ON "order_uploads" USING btree ("storage_key");
CREATE UNIQUE INDEX "orders_order_number_key" ON "orders" USING btree ("order_number");
CREATE UNIQUE INDEX "orders_provider_session_key" ON "orders" USING btree ("provider_session_id");
CREATE INDEX "orders_created_at_idx" ON "orders" USING btree ("created_at");
CREATE INDEX "orders_status_idx" ON "orders" USING btree ("status","created_at");
CREATE INDEX "orders_email_idx" ON "orders" USING btree ("email");
CREATE INDEX "orders_photos_delete_after_idx" ON "orders" USING btree ("photos_delete_after");
CREATE UNIQUE INDEX "outgoing_mail_dedupe_key" ON "outgoing_mail" USING btree ("dedupe_key");
CREATE INDEX "outgoing_mail_created_idx" ON "outgoing_mail" USING btree ("created_at");
CREATE INDEX "outgoing_mail_order_idx" ON "outgoing_mail" USING btree ("order_id");
CREATE UNIQUE INDEX "payment_events_provider_event_key" ON "payment_events" USING btree ("provider","event_id");
CREATE INDEX "payment_events_order_idx" ON "payment_events" USING btree ("order_id");
CREATE INDEX "rate_limits_reset_idx" ON "rate_limits" USING btree ("reset_at");
CREATE INDEX "revision_requests_status_idx" ON "revision_requests" USING btree ("status","created_at");
CREATE INDEX "staff_sessions_user_idx" ON "staff_sessions" USING btree ("staff_user_id");
CREATE INDEX "staff_sessions_expires_idx" ON "staff_sessions" USING btree ("expires_at");
CREATE UNIQUE INDEX "staff_users_email_key" ON "staff_users" USING btree ("email");