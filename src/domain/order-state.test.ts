import { expect, test } from 'vitest';
import { ORDER_STATUSES, canChangePayment, canTransition, checkTransition, nextStatuses, trackingStep } from './order-state.js';

test('the allowed order transitions, and only these, pass', () => {
  const allowed = new Set<string>();
  for (const from of ORDER_STATUSES) {
    for (const to of ORDER_STATUSES) {
      for (const actor of ['system', 'staff', 'customer'] as const) {
        if (canTransition(from, to, actor)) allowed.add(`${from}->${to}:${actor}`);
      }
    }
  }
  expect([...allowed].sort()).toEqual(
    [
      'created->paid:system',
      'created->cancelled:system',
      'created->cancelled:staff',
      'paid->in_progress:system',
      'paid->in_progress:staff',
      'paid->cancelled:system',
      'paid->cancelled:staff',
      'in_progress->completed:staff',
      'in_progress->cancelled:system',
      'in_progress->cancelled:staff',
      'completed->in_progress:staff',
      'completed->in_progress:customer',
    ].sort(),
  );
});

test('nobody but a verified payment marks an order paid', () => {
  expect(canTransition('created', 'paid', 'staff')).toBe(false);
  expect(canTransition('created', 'paid', 'customer')).toBe(false);
  expect(canTransition('created', 'paid', 'system')).toBe(true);
});

test('cancelled is final and completed cannot be skipped to', () => {
  expect(nextStatuses('cancelled', 'staff')).toEqual([]);
  expect(canTransition('created', 'completed', 'staff')).toBe(false);
  expect(canTransition('paid', 'completed', 'staff')).toBe(false);
});

test('completing needs enough active results', () => {
  expect(checkTransition({ from: 'in_progress', to: 'completed', actor: 'staff', activeResults: 9, requiredResults: 10 })).toEqual({
    ok: false,
    code: 'notEnoughResults',
    required: 10,
  });
  expect(checkTransition({ from: 'in_progress', to: 'completed', actor: 'staff', activeResults: 10, requiredResults: 10 })).toEqual({ ok: true });
  expect(checkTransition({ from: 'paid', to: 'completed', actor: 'staff', activeResults: 10, requiredResults: 10 })).toEqual({
    ok: false,
    code: 'transitionNotAllowed',
  });
});

test('payment status moves only forward, refunds only after payment', () => {
  expect(canChangePayment('pending', 'paid')).toBe(true);
  expect(canChangePayment('failed', 'paid')).toBe(true);
  expect(canChangePayment('paid', 'pending')).toBe(false);
  expect(canChangePayment('pending', 'refunded')).toBe(false);
  expect(canChangePayment('paid', 'refunded')).toBe(true);
  expect(canChangePayment('refunded', 'paid')).toBe(false);
});

test('tracking steps follow the spec', () => {
  expect(['cancelled', 'created', 'paid', 'in_progress', 'completed', 'whatever'].map(trackingStep)).toEqual([0, 1, 2, 3, 4, 1]);
});
