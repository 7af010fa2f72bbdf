// When the studio works, and so when a delivery promised "in N hours" is due: the hours count only while the
// studio is open (the contact page and the footer list the same times), in German time, without the public
// holidays observed in all of Germany. One rule for due times, the dashboard's order and every delivery claim.
import { nationwideHolidays } from './german-holidays.js';
import { SHOP_TIME_ZONE } from './dates.js';

/** Opening hours per weekday (0 Sunday … 6 Saturday), local time in whole hours; null: closed. */
export const BUSINESS_HOURS: readonly (readonly [number, number] | null)[] = [null, [9, 18], [9, 18], [9, 18], [9, 18], [9, 18], [10, 16]];

const HOUR = 3600 * 1000;

/** The moment `hours` business hours after `start` (a start outside business hours counts from the next opening). */
export function addBusinessHours(start: Date, hours: number): Date {
  let remaining = hours * HOUR;
  let day = localDate(start);
  for (let guard = 0; guard < 800; guard++) {
    const window = openWindow(day);
    if (window) {
      const from = Math.max(window.open, start.getTime());
      if (from < window.close) {
        if (from + remaining <= window.close) return new Date(from + remaining);
        remaining -= window.close - from;
      }
    }
    day = nextDay(day);
  }
  throw new Error('business hours: no opening within 800 days');
}

/** Business hours between two moments (0 when `to` is not after `from`). */
export function businessHoursBetween(from: Date, to: Date): number {
  if (to <= from) return 0;
  let total = 0;
  let day = localDate(from);
  for (let guard = 0; guard < 800; guard++) {
    const window = openWindow(day);
    if (window) {
      const a = Math.max(window.open, from.getTime());
      const b = Math.min(window.close, to.getTime());
      if (b > a) total += b - a;
      if (window.close >= to.getTime()) break;
    } else if (instant(day, 0) > to.getTime()) {
      break;
    }
    day = nextDay(day);
  }
  return total / HOUR;
}

interface LocalDay {
  year: number;
  /** 1–12 */
  month: number;
  day: number;
}

/** The studio's opening and closing time on a local day, as instants; null when closed (Sunday, a holiday). */
function openWindow(date: LocalDay): { open: number; close: number } | null {
  const weekday = new Date(Date.UTC(date.year, date.month - 1, date.day)).getUTCDay();
  const hours = BUSINESS_HOURS[weekday];
  if (!hours || isPublicHoliday(date)) return null;
  return { open: instant(date, hours[0]), close: instant(date, hours[1]) };
}

/** The public holidays observed in all of Germany (german-holidays.ts): the studio is closed on them. */
export function isPublicHoliday(date: LocalDay): boolean {
  const iso = `${date.year}-${String(date.month).padStart(2, '0')}-${String(date.day).padStart(2, '0')}`;
  return nationwideHolidays(date.year).includes(iso);
}

const PARTS = new Intl.DateTimeFormat('en-GB', { timeZone: SHOP_TIME_ZONE, year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', hourCycle: 'h23' });

function parts(at: number): { year: number; month: number; day: number; hour: number; minute: number } {
  const values = Object.fromEntries(PARTS.formatToParts(new Date(at)).map((p) => [p.type, Number(p.value)]));
  return { year: values.year!, month: values.month!, day: values.day!, hour: values.hour!, minute: values.minute! };
}

function localDate(at: Date): LocalDay {
  const { year, month, day } = parts(at.getTime());
  return { year, month, day };
}

function nextDay(date: LocalDay): LocalDay {
  const next = new Date(Date.UTC(date.year, date.month - 1, date.day + 1));
  return { year: next.getUTCFullYear(), month: next.getUTCMonth() + 1, day: next.getUTCDate() };
}

/** The instant of a local (German) wall-clock hour; the studio's hours never fall into a clock change. */
function instant(date: LocalDay, hour: number): number {
  const guess = Date.UTC(date.year, date.month - 1, date.day, hour);
  const seen = parts(guess);
  const offset = Date.UTC(seen.year, seen.month - 1, seen.day, seen.hour, seen.minute) - guess;
  return guess - offset;
}
