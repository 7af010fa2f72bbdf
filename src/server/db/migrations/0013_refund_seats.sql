-- A team order's unused seats can be paid back (issue 17): the refund names how many seats it gives back, so
-- the seats are taken from the team when it is asked for and returned to it if the refund fails.
ALTER TABLE "refunds" ADD COLUMN "seats" integer;
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_seats_check" CHECK ("seats" IS NULL OR "seats" > 0);
