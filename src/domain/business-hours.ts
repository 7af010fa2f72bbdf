// When the studio works, and so when a delivery promised "in N hours" is due: the hours count only while the
// studio is open (the contact page and the footer list the same times), in German time, without the public
// holidays observed in all of Germany. One rule for due times, the dashboard's order and every delivery claim.
import { SHOP_TIME_ZONE } from './money.js';

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

/** Public holidays in every German state: New Year, Good Friday, Easter Monday, 1 May, Ascension, Whit Monday, 3 October, Christmas. */
export function isPublicHoliday(date: LocalDay): boolean {
  const fixed = [
    [1, 1],
    [5, 1],
    [10, 3],
    [12, 25],
    [12, 26],
  ];
  if (fixed.some(([m, d]) => m === date.month && d === date.day)) return true;
  const easter = easterSunday(date.year);
  const offset = Math.round((Date.UTC(date.year, date.month - 1, date.day) - Date.UTC(date.year, easter.month - 1, easter.day)) / (24 * HOUR));
  return [-2, 1, 39, 50].includes(offset);
}

/** Easter Sunday of the Gregorian calendar (the anonymous algorithm of Meeus, Jones and Butcher). */
function easterSunday(year: number): { month: number; day: number } {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return { month, day };
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
