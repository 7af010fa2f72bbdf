// Delivery times count the studio's business hours (Mo–Fr 9–18, Sa 10–16, German time, no public holidays).
import { expect, test } from 'vitest';
import { addBusinessHours, businessHoursBetween, isPublicHoliday } from './business-hours.js';

/** A German wall-clock time as an instant (winter time: UTC+1, summer time: UTC+2). */
const berlin = (iso: string, summer = false) => new Date(`${iso}${summer ? '+02:00' : '+01:00'}`);

test('a Saturday-evening order waits for Monday: 24 business hours end on Wednesday afternoon', () => {
  // Sat 28 Nov 2026 20:00 (closed since 16:00) → Mon 9–18 (9 h), Tue 9–18 (18 h), Wed 9:00 + 6 h.
  expect(addBusinessHours(berlin('2026-11-28T20:00:00'), 24)).toEqual(berlin('2026-12-02T15:00:00'));
  // Paid Saturday 14:00: two hours on Saturday count.
  expect(addBusinessHours(berlin('2026-11-28T14:00:00'), 6)).toEqual(berlin('2026-11-30T13:00:00'));
});

test('a Sunday order: express (6 h) is ready on Monday at 15:00', () => {
  expect(addBusinessHours(berlin('2026-11-29T10:00:00'), 6)).toEqual(berlin('2026-11-30T15:00:00'));
});

test('public holidays are closed days: Christmas, and Easter from Good Friday to Easter Monday', () => {
  // Thu 24 Dec 2026 17:00: one hour that day; 25 and 26 (a Saturday) are holidays, 27 a Sunday; Mon 28 9:00 + 5 h.
  expect(addBusinessHours(berlin('2026-12-24T17:00:00'), 6)).toEqual(berlin('2026-12-28T14:00:00'));
  // Easter 2026 is 5 April: Thu 2 April 16:00 → 2 h; Good Friday closed; Sat 10–16 6 h; Easter Monday closed; Tue 9:00 + 4 h.
  expect(addBusinessHours(berlin('2026-04-02T16:00:00', true), 12)).toEqual(berlin('2026-04-07T13:00:00', true));
  for (const [year, month, day] of [
    [2026, 1, 1],
    [2026, 4, 3],
    [2026, 4, 6],
    [2026, 5, 1],
    [2026, 5, 14],
    [2026, 5, 25],
    [2026, 10, 3],
    [2026, 12, 25],
    [2027, 3, 26],
    [2027, 3, 29],
  ] as const) {
    expect(isPublicHoliday({ year, month, day }), `${year}-${month}-${day}`).toBe(true);
  }
  expect(isPublicHoliday({ year: 2026, month: 4, day: 7 })).toBe(false);
});

test('within one working day it is plain clock time, across the clock change too', () => {
  expect(addBusinessHours(berlin('2026-11-25T10:00:00'), 6)).toEqual(berlin('2026-11-25T16:00:00'));
  // Fri 27 March 2026 17:00 (winter time) + 3 h: 1 h Friday, Sat 28 March 10:00 + 2 h (still winter time);
  // Sunday the clocks change; Mon 30 March is summer time.
  expect(addBusinessHours(berlin('2026-03-27T17:00:00'), 3)).toEqual(berlin('2026-03-28T12:00:00'));
  expect(addBusinessHours(berlin('2026-03-27T17:00:00'), 8)).toEqual(berlin('2026-03-30T10:00:00', true));
});

test('business hours between two moments are what was added', () => {
  const start = berlin('2026-11-28T20:00:00');
  for (const hours of [1, 6, 12, 24, 48]) expect(businessHoursBetween(start, addBusinessHours(start, hours))).toBeCloseTo(hours, 6);
  expect(businessHoursBetween(berlin('2026-11-29T08:00:00'), berlin('2026-11-29T20:00:00'))).toBe(0);
});
