// Public holidays observed in all of Germany, for deadlines that move to the next working day (§ 193 BGB).
// Regional holidays (e.g. Epiphany, Corpus Christi) differ by state and are not counted: a deadline that
// falls on one ends later for customers there, never earlier than this.

/** Easter Sunday (Gregorian calendar), as a UTC date. */
function easterSunday(year: number): Date {
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
  return new Date(Date.UTC(year, month - 1, day));
}

function isoDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

function plusDays(date: Date, days: number): Date {
  return new Date(date.getTime() + days * 24 * 3600 * 1000);
}

/** The nationwide public holidays of a year, as YYYY-MM-DD. */
export function nationwideHolidays(year: number): string[] {
  const easter = easterSunday(year);
  return [
    `${year}-01-01`, // Neujahr
    isoDay(plusDays(easter, -2)), // Karfreitag
    isoDay(plusDays(easter, 1)), // Ostermontag
    `${year}-05-01`, // Tag der Arbeit
    isoDay(plusDays(easter, 39)), // Christi Himmelfahrt
    isoDay(plusDays(easter, 50)), // Pfingstmontag
    `${year}-10-03`, // Tag der Deutschen Einheit
    `${year}-12-25`, // 1. Weihnachtstag
    `${year}-12-26`, // 2. Weihnachtstag
  ];
}

/** A calendar day (YYYY-MM-DD) moved forward past Saturdays, Sundays and nationwide holidays (§ 193 BGB). */
export function nextWorkingDay(day: string): string {
  let date = new Date(`${day}T00:00:00Z`);
  for (;;) {
    const weekday = date.getUTCDay();
    const iso = isoDay(date);
    if (weekday !== 0 && weekday !== 6 && !nationwideHolidays(date.getUTCFullYear()).includes(iso)) return iso;
    date = plusDays(date, 1);
  }
}
