// Public holidays in Germany, for deadlines that move to the next working day (§ 193 BGB). Which state's
// holidays apply depends on where the customer is, which we do not know: the holidays of every state count,
// so a deadline is never earlier than the customer's own.

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

/** The holidays of single states (Epiphany, Women's Day, Corpus Christi, …), as YYYY-MM-DD. */
export function regionalHolidays(year: number): string[] {
  const easter = easterSunday(year);
  const nov22 = new Date(Date.UTC(year, 10, 22));
  // Buß- und Bettag (Saxony): the last Wednesday before 23 November.
  const repentance = plusDays(nov22, -((nov22.getUTCDay() - 3 + 7) % 7));
  return [
    `${year}-01-06`, // Heilige Drei Könige
    `${year}-03-08`, // Internationaler Frauentag
    isoDay(plusDays(easter, 60)), // Fronleichnam
    `${year}-08-15`, // Mariä Himmelfahrt
    `${year}-09-20`, // Weltkindertag
    `${year}-10-31`, // Reformationstag
    `${year}-11-01`, // Allerheiligen
    isoDay(repentance),
  ];
}

/** A calendar day (YYYY-MM-DD) moved forward past Saturdays, Sundays and public holidays of any state (§ 193 BGB). */
export function nextWorkingDay(day: string): string {
  let date = new Date(`${day}T00:00:00Z`);
  for (;;) {
    const weekday = date.getUTCDay();
    const iso = isoDay(date);
    const year = date.getUTCFullYear();
    if (weekday !== 0 && weekday !== 6 && !nationwideHolidays(year).includes(iso) && !regionalHolidays(year).includes(iso)) return iso;
    date = plusDays(date, 1);
  }
}
