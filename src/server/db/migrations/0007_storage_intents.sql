-- Files written before the row that lists them commits (a customer's photo and its thumbnail, a staff
-- upload): the key is noted here first and the note is removed in the transaction that stores the row.
-- A note that outlives its write by an hour belongs to an upload that never committed (a crash, a lost
-- connection, a refusal whose cleanup failed): the deletion job removes its file and the note.
CREATE TABLE "storage_intents" (
  "key" text PRIMARY KEY NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL
);
CREATE INDEX "storage_intents_created_idx" ON "storage_intents" ("created_at");
-- File names stored before format characters were refused: bidirectional overrides and invisible marks go.
UPDATE "order_uploads" SET "file_name" = regexp_replace("file_name", '[\u061C\u200B-\u200F\u202A-\u202E\u2060-\u2069\uFEFF]', '', 'g')
  WHERE "file_name" ~ '[\u061C\u200B-\u200F\u202A-\u202E\u2060-\u2069\uFEFF]';
UPDATE "order_uploads" SET "file_name" = 'foto' WHERE btrim("file_name") = '';
