-- Withdrawals: two more outcomes. "late": the 14 days after the contract were over when it arrived;
-- "unpaid": the order was never paid, so there is nothing to refund.
ALTER TABLE "withdrawals" DROP CONSTRAINT "withdrawals_outcome_check";
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_outcome_check" CHECK ("withdrawals"."outcome" in ('withdrawn','expired','late','unpaid','unmatched'));
-- Invoices issued before retention was set at issue: at least to the end of the 8th calendar year after
-- the year of issue (1 January of the 9th, midnight in Germany).
UPDATE "invoices" SET "retain_until" = greatest("retain_until", (("year" + 9)::text || '-01-01 00:00:00+01')::timestamptz);
