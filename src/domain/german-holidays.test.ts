import { expect, test } from 'vitest';
import { nationwideHolidays, nextWorkingDay, regionalHolidays } from './german-holidays.js';

test('the nationwide holidays, Easter-dependent ones included', () => {
  expect(nationwideHolidays(2026)).toEqual(['2026-01-01', '2026-04-03', '2026-04-06', '2026-05-01', '2026-05-14', '2026-05-25', '2026-10-03', '2026-12-25', '2026-12-26']);
  expect(nationwideHolidays(2027)).toContain('2027-03-26'); // Karfreitag 2027
  expect(nationwideHolidays(2027)).toContain('2027-05-17'); // Pfingstmontag 2027
});

test('the holidays of single states, counted for everyone', () => {
  expect(regionalHolidays(2026)).toEqual(['2026-01-06', '2026-03-08', '2026-06-04', '2026-08-15', '2026-09-20', '2026-10-31', '2026-11-01', '2026-11-18']);
  expect(regionalHolidays(2027)).toContain('2027-11-17'); // Buß- und Bettag 2027
});

test('a deadline on a weekend or holiday moves to the next working day', () => {
  expect(nextWorkingDay('2027-01-06')).toBe('2027-01-07'); // Epiphany (Wednesday)
  expect(nextWorkingDay('2026-11-18')).toBe('2026-11-19'); // Buß- und Bettag
  expect(nextWorkingDay('2026-12-07')).toBe('2026-12-07'); // Monday
  expect(nextWorkingDay('2027-01-03')).toBe('2027-01-04'); // Sunday
  expect(nextWorkingDay('2026-12-25')).toBe('2026-12-28'); // Friday holiday, Saturday 26th, Sunday
  expect(nextWorkingDay('2026-04-03')).toBe('2026-04-07'); // Good Friday to the Tuesday after Easter Monday
});
