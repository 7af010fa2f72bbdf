-- Withdrawals: two more outcomes. "late": the 14 days after the contract were over when it arrived;
-- "unpaid": the order was never paid, so there is nothing to refund.
ALTER TABLE "withdrawals" DROP CONSTRAINT "withdrawals_outcome_check";
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_outcome_check" CHECK ("withdrawals"."outcome" in ('withdrawn','expired','late','unpaid','unmatched'));
