// The right of withdrawal: its period and what a declaration means for an order (§§ 355, 356 BGB).
import { nextWorkingDay } from './german-holidays.js';
import { berlinDay } from './dates.js';

export type WithdrawalOutcome = 'withdrawn' | 'expired' | 'late' | 'unpaid' | 'unmatched';

/** The withdrawal period: 14 days from the contract (§ 355 (2) BGB). */
export const WITHDRAWAL_PERIOD_DAYS = 14;

/**
 * The last day to withdraw (Berlin calendar day, YYYY-MM-DD): the day of the order is not counted
 * (§ 187 (1) BGB), the period ends with the 14th day after it (§ 188 (1) BGB), or with the next working
 * day when that is a Saturday, Sunday or public holiday (§ 193 BGB).
 */
export function withdrawalDeadline(orderedAt: Date): string {
  const [year, month, day] = berlinDay(orderedAt).split('-').map(Number) as [number, number, number];
  return nextWorkingDay(new Date(Date.UTC(year, month - 1, day + WITHDRAWAL_PERIOD_DAYS)).toISOString().slice(0, 10));
}

export interface WithdrawableOrder {
  status: string;
  paymentStatus: string;
  waiverAcceptedAt: Date | null;
  orderedAt: Date | null;
}

/**
 * What a declaration received at `at` means for its order: nothing paid (nothing to refund); sent after
 * the period; the right expired because the service was fully performed after the customer asked for the
 * early start (§ 356 (4) BGB); or withdrawn, and staff refund.
 */
export function withdrawalOutcome(order: WithdrawableOrder | null, at: Date): WithdrawalOutcome {
  if (!order || !order.orderedAt) return 'unmatched';
  if (order.paymentStatus !== 'paid' && order.paymentStatus !== 'refunded') return 'unpaid';
  if (berlinDay(at) > withdrawalDeadline(order.orderedAt)) return 'late';
  return order.status === 'completed' && order.waiverAcceptedAt ? 'expired' : 'withdrawn';
}
