-- Redo before accepting (issue 16): a revision names the pictures to make again (the package's budget counts
-- them), has its own due time, and is closed by staff with an answer the customer receives by mail.
ALTER TABLE "revision_requests" ADD COLUMN "image_ids" jsonb NOT NULL DEFAULT '[]'::jsonb;
ALTER TABLE "revision_requests" ADD COLUMN "due_at" timestamp with time zone;
ALTER TABLE "revision_requests" ADD COLUMN "answer" text;
ALTER TABLE "revision_requests" ADD COLUMN "answered_by" uuid REFERENCES "staff_users"("id") ON DELETE SET NULL;
CREATE INDEX "revision_requests_order_idx" ON "revision_requests" ("order_id", "created_at");
-- At most one open revision per order: a second request waits for the answer to the first.
CREATE UNIQUE INDEX "revision_requests_one_open" ON "revision_requests" ("order_id") WHERE "status" = 'open';
