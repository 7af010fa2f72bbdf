ALTER TABLE "orders" ADD COLUMN "production_mode" text DEFAULT 'studio' NOT NULL;
ALTER TABLE "orders" ADD COLUMN "studio_generation" integer DEFAULT 0 NOT NULL;
ALTER TABLE "orders" ADD CONSTRAINT "orders_production_mode_check" CHECK ("orders"."production_mode" in ('studio','generator','manual'));