-- When the last attempt to send a mail started. A row left 'sending' by a process that died mid-send
-- is claimed again once this is old enough (mailer.ts), so a mail the shop owes is not lost.
ALTER TABLE "outgoing_mail" ADD COLUMN "attempted_at" timestamp with time zone DEFAULT now() NOT NULL;
