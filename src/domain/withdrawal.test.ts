import { expect, test } from 'vitest';
import { withdrawalDeadline, withdrawalOutcome } from './withdrawal.js';

test('the withdrawal period ends with the 14th day after the order, counted in German calendar days', () => {
  expect(withdrawalDeadline(new Date('2026-11-23T13:05:00Z'))).toBe('2026-12-07');
  // 00:30 on 1 December in Berlin is still 30 November in UTC.
  expect(withdrawalDeadline(new Date('2026-11-30T23:30:00Z'))).toBe('2026-12-15');
  // The 14th day is Sunday 3 January: the period runs to Monday (§ 193 BGB).
  expect(withdrawalDeadline(new Date('2026-12-20T10:00:00Z'))).toBe('2027-01-04');
  // The 14th day is Christmas Day (Friday): Monday 28 December.
  expect(withdrawalDeadline(new Date('2026-12-11T10:00:00Z'))).toBe('2026-12-28');
});

test('what a declaration means: unpaid, late, expired after full performance with the early start, or withdrawn', () => {
  const at = new Date('2026-11-23T10:00:00Z');
  const paid = { status: 'paid', paymentStatus: 'paid', waiverAcceptedAt: new Date('2026-11-20T10:00:00Z'), orderedAt: new Date('2026-11-20T10:00:00Z') };
  expect(withdrawalOutcome(null, at)).toBe('unmatched');
  expect(withdrawalOutcome({ ...paid, orderedAt: null }, at)).toBe('unmatched');
  expect(withdrawalOutcome({ ...paid, paymentStatus: 'pending' }, at)).toBe('unpaid');
  expect(withdrawalOutcome(paid, at)).toBe('withdrawn');
  expect(withdrawalOutcome({ ...paid, paymentStatus: 'refunded' }, at)).toBe('withdrawn');
  expect(withdrawalOutcome({ ...paid, status: 'completed' }, at)).toBe('expired');
  expect(withdrawalOutcome({ ...paid, status: 'completed', waiverAcceptedAt: null }, at)).toBe('withdrawn');
  // The last day still counts; the day after is late.
  expect(withdrawalOutcome({ ...paid, orderedAt: new Date('2026-11-09T10:00:00Z') }, at)).toBe('withdrawn');
  expect(withdrawalOutcome({ ...paid, orderedAt: new Date('2026-11-09T10:00:00Z') }, new Date('2026-11-24T10:00:00Z'))).toBe('late');
});
