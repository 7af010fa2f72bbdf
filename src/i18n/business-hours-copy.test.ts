// The hours every page and mail states are the hours the due times are counted in (domain/business-hours.ts).
import { expect, test } from 'vitest';
import { BUSINESS_HOURS } from '../domain/business-hours.js';
import { LANGUAGES } from '../domain/catalog.js';
import { ALL_MESSAGES } from './all-messages.js';
import { translate } from './messages.js';

test.each(LANGUAGES)('the stated business hours are the counted ones (%s)', (language) => {
  const text = (key: string) => translate(language, ALL_MESSAGES[language], key);
  const [weekdayOpen, weekdayClose] = BUSINESS_HOURS[1]!;
  const [saturdayOpen, saturdayClose] = BUSINESS_HOURS[6]!;
  for (const day of [1, 2, 3, 4, 5]) expect(BUSINESS_HOURS[day]).toEqual([weekdayOpen, weekdayClose]);
  expect(BUSINESS_HOURS[0]).toBeNull();
  // English writes 9 am–6 pm, German and Spanish 9–18.
  const span = (open: number, close: number) => (language === 'en' ? `${clock12(open)}–${clock12(close)}` : `${open}–${close}`);
  for (const key of ['common.businessHoursRule', 'common.footer.hoursWeekdays']) expect(text(key), key).toContain(span(weekdayOpen, weekdayClose));
  for (const key of ['common.businessHoursRule', 'common.footer.hoursSaturday']) expect(text(key), key).toContain(span(saturdayOpen, saturdayClose));
  // Every delivery claim speaks of business hours.
  const word = { de: 'Geschäftsstunden', en: 'business hours', es: 'horas laborables' }[language];
  for (const key of ['home.pricing.delivery', 'tracking.processing.delivery', 'legal.terms.s4.packageLine', 'legal.terms.s4.expressDelivery', 'catalog.extras.express_delivery.description']) {
    expect(text(key), key).toContain(word);
  }
});

function clock12(hour: number): string {
  return `${hour % 12 || 12} ${hour < 12 ? 'am' : 'pm'}`;
}
