-- A photo whose check waits for a worker (the web process was busy when it arrived): the upload is answered
-- at once and the file kept as received under the order's uploads prefix until a worker has checked it.
-- Accepted, it becomes an order_uploads row with the same id and this row goes; refused, the file goes and
-- the row keeps the reason for the customer's wizard. Rows go with their order.
CREATE TABLE "photo_checks" (
  "id" uuid PRIMARY KEY NOT NULL,
  "order_id" uuid NOT NULL REFERENCES "orders"("id") ON DELETE CASCADE,
  "file_name" text NOT NULL,
  "storage_key" text NOT NULL,
  "status" text NOT NULL CHECK ("status" IN ('checking', 'refused')),
  "code" text,
  "details" jsonb,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "finished_at" timestamp with time zone
);
CREATE INDEX "photo_checks_order_idx" ON "photo_checks" ("order_id", "status");
