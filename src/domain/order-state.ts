// One order state machine for customers, staff and the system (docs/rules.md §2).

export const ORDER_STATUSES = ['created', 'paid', 'in_progress', 'completed', 'cancelled'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const PAYMENT_STATUSES = ['pending', 'paid', 'failed', 'refunded'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

export type Actor = 'system' | 'staff' | 'customer';

/** Who makes an order's pictures: the built-in studio, an external generator, or staff by hand. */
export const PRODUCTION_MODES = ['studio', 'generator', 'manual'] as const;
export type ProductionMode = (typeof PRODUCTION_MODES)[number];

/** Pictures are made only for an order that is paid and neither completed nor cancelled. */
export function isInProduction(order: { paymentStatus: string; status: string }): boolean {
  return order.paymentStatus === 'paid' && order.status !== 'completed' && order.status !== 'cancelled';
}

interface Transition {
  from: OrderStatus;
  to: OrderStatus;
  by: readonly Actor[];
}

// created -> paid happens only through a verified payment event (the system), never by a click.
// completed -> in_progress is a revision request (customer) or a staff reopening.
const TRANSITIONS: readonly Transition[] = [
  { from: 'created', to: 'paid', by: ['system'] },
  { from: 'created', to: 'cancelled', by: ['system', 'staff'] },
  { from: 'paid', to: 'in_progress', by: ['system', 'staff'] },
  { from: 'paid', to: 'cancelled', by: ['system', 'staff'] },
  { from: 'in_progress', to: 'completed', by: ['staff'] },
  { from: 'in_progress', to: 'cancelled', by: ['system', 'staff'] },
  { from: 'completed', to: 'in_progress', by: ['staff', 'customer'] },
];

export function isOrderStatus(value: unknown): value is OrderStatus {
  return typeof value === 'string' && (ORDER_STATUSES as readonly string[]).includes(value);
}

export function canTransition(from: OrderStatus, to: OrderStatus, actor: Actor): boolean {
  return TRANSITIONS.some((t) => t.from === from && t.to === to && t.by.includes(actor));
}

/** The statuses an actor may move an order to from its current status. */
export function nextStatuses(from: OrderStatus, actor: Actor): OrderStatus[] {
  return TRANSITIONS.filter((t) => t.from === from && t.by.includes(actor)).map((t) => t.to);
}

export type TransitionCheck =
  | { ok: true }
  | { ok: false; code: 'transitionNotAllowed' | 'notEnoughResults'; required?: number };

/**
 * Checks a status change. Completing needs at least the required number of active results.
 */
export function checkTransition(input: {
  from: OrderStatus;
  to: OrderStatus;
  actor: Actor;
  activeResults?: number;
  requiredResults?: number;
}): TransitionCheck {
  if (!canTransition(input.from, input.to, input.actor)) return { ok: false, code: 'transitionNotAllowed' };
  if (input.to === 'completed') {
    const required = input.requiredResults ?? 0;
    if ((input.activeResults ?? 0) < required) return { ok: false, code: 'notEnoughResults', required };
  }
  return { ok: true };
}

const PAYMENT_TRANSITIONS: Readonly<Record<PaymentStatus, readonly PaymentStatus[]>> = {
  pending: ['paid', 'failed'],
  // A failed attempt may be followed by a successful retry.
  failed: ['paid', 'pending'],
  paid: ['refunded'],
  refunded: [],
};

export function canChangePayment(from: PaymentStatus, to: PaymentStatus): boolean {
  return PAYMENT_TRANSITIONS[from].includes(to);
}

/** Tracking progress step (spec: cancelled 0, created 1 ... completed 4). */
export function trackingStep(status: string): number {
  switch (status) {
    case 'cancelled':
      return 0;
    case 'created':
      return 1;
    case 'paid':
      return 2;
    case 'in_progress':
      return 3;
    case 'completed':
      return 4;
    default:
      return 1;
  }
}
