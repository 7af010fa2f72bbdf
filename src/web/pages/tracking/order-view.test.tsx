// @vitest-environment jsdom
// What the tracking and status pages say while an order is being made, and what they say when the customer
// deleted the photos in the middle of it (production stopped, staff get in touch, no due time promised).
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { expect, test } from 'vitest';
import { LANGUAGES } from '../../../domain/catalog.js';
import { ALL_MESSAGES } from '../../../i18n/all-messages.js';
import { messagesFor, translate } from '../../../i18n/messages.js';
import { I18nProvider } from '../../lib/i18n.js';
import { Revision } from './order-revision.js';
import { ProcessingInfo, ResultsGallery, type OrderView } from './order-view.js';

const IN_PROGRESS: OrderView = {
  orderId: '6f1c2a9e-3b4d-4c5e-8f70-123456789abc',
  orderNumber: 'BF-TEST0001',
  status: 'in_progress',
  paymentStatus: 'paid',
  email: 'kundin@example.de',
  language: 'de',
  package: 'pro',
  style: 'professional',
  gender: 'female',
  location: 'studio',
  outfit: null,
  extras: [],
  features: { hd: true, extraVariants: false, expressDelivery: false, commercialLicense: false },
  totalCents: 2792,
  createdAt: '2026-11-23T10:00:00Z',
  paidAt: '2026-11-23T10:05:00Z',
  completedAt: null,
  deliveryHours: 24,
  dueAt: '2026-11-24T10:05:00Z',
  overdue: false,
  resultCount: 10,
  uploads: [],
  results: [],
  zipUrl: null,
  history: [],
  photosDeleteAfter: null,
  photosDeletedAt: null,
  revision: { allowedUntil: null, open: false, budget: 4, remaining: 4, current: null, answers: [] },
  formatZips: [],
  contact: { email: 'support@shop.test', phone: null },
  invoices: [],
};

async function rendered(order: OrderView, language: (typeof LANGUAGES)[number]): Promise<HTMLElement> {
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
  const container = document.createElement('div');
  await act(async () =>
    createRoot(container).render(
      <I18nProvider language={language} messages={messagesFor(ALL_MESSAGES[language], [])}>
        <ProcessingInfo order={order} />
      </I18nProvider>,
    ),
  );
  return container;
}

test.each(LANGUAGES)('in production the page gives the due time; with the photos deleted it says production stopped and staff get in touch (%s)', async (language) => {
  const text = (key: string) => translate(language, ALL_MESSAGES[language], key);
  const working = await rendered(IN_PROGRESS, language);
  expect(working.textContent).toContain(text('tracking.processing.working'));
  expect(working.querySelector('[data-testid="photos-deleted-in-production"]')).toBeNull();

  const stopped = await rendered({ ...IN_PROGRESS, photosDeletedAt: '2026-11-23T12:00:00Z' }, language);
  expect(stopped.querySelector('[data-testid="photos-deleted-in-production"]')?.textContent).toBe(text('tracking.processing.photosDeleted'));
  expect(stopped.textContent).not.toContain(text('tracking.processing.working'));
  // No due time promised for pictures that cannot be made.
  expect(stopped.textContent).not.toContain(text('tracking.processing.due').split('{')[0]!.trim());
});

test.each(LANGUAGES)('past the promised time the page owns up to it, with the date and where to write (%s)', async (language) => {
  const text = (key: string) => translate(language, ALL_MESSAGES[language], key);
  const late = await rendered({ ...IN_PROGRESS, overdue: true }, language);
  const notice = late.querySelector('[data-testid="order-overdue"]')?.textContent ?? '';
  expect(notice).toContain('support@shop.test');
  expect(notice).toContain(text('tracking.processing.overdue').split('{')[0]!.trim());
  expect(late.textContent).not.toContain(text('tracking.processing.working'));
  expect((await rendered(IN_PROGRESS, language)).querySelector('[data-testid="order-overdue"]')).toBeNull();
});

test.each(LANGUAGES)('a redo past its own due time is owned up to on the status page; within it, the due time is given (%s)', async (language) => {
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
  const text = (key: string) => translate(language, ALL_MESSAGES[language], key);
  const redoing = (overdue: boolean): OrderView => ({
    ...IN_PROGRESS,
    revision: { ...IN_PROGRESS.revision, open: true, current: { createdAt: '2026-11-30T10:00:00Z', dueAt: '2026-12-02T10:00:00Z', overdue, pictures: 2, message: '' } },
  });
  const page = async (order: OrderView) => {
    const container = document.createElement('div');
    await act(async () =>
      createRoot(container).render(
        <I18nProvider language={language} messages={messagesFor(ALL_MESSAGES[language], [])}>
          <Revision order={order} token="t" selected={[]} onChange={() => undefined} />
        </I18nProvider>,
      ),
    );
    return container;
  };
  const late = await page(redoing(true));
  const notice = late.querySelector('[data-testid="revision-overdue"]')?.textContent ?? '';
  expect(notice).toContain(text('orderStatus.revision.overdue').split('{')[0]!.trim());
  expect(notice).toContain('support@shop.test');
  const inTime = await page(redoing(false));
  expect(inTime.querySelector('[data-testid="revision-overdue"]')).toBeNull();
  expect(inTime.textContent).toContain(text('orderStatus.revision.due').split('{')[0]!.trim());
});

test('a picture whose link ran out asks once for fresh links; if it fails again the customer sees a placeholder, not a broken image', async () => {
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
  const result = { id: 'r1', n: 1, fileName: 'a.jpg', format: 'portrait' as const, favourite: false, redo: false, url: '/files/old?sig=1', downloadUrl: '/api/orders/x/results/r1/download?exp=1&sig=1' };
  let renewals = 0;
  const container = document.createElement('div');
  const root = createRoot(container);
  const gallery = (url: string) => (
    <I18nProvider language="de" messages={messagesFor(ALL_MESSAGES.de, [])}>
      <ResultsGallery
        order={{ ...IN_PROGRESS, status: 'completed', results: [{ ...result, url }] }}
        renew={async () => {
          renewals++;
          return null;
        }}
      />
    </I18nProvider>
  );
  await act(async () => root.render(gallery(result.url)));
  await act(async () => container.querySelector('img')!.dispatchEvent(new Event('error')));
  expect(renewals).toBe(1);
  // Fresh links arrive (a new URL), and that one fails too: no second renewal, a placeholder instead.
  await act(async () => root.render(gallery('/files/new?sig=2')));
  await act(async () => container.querySelector('img')!.dispatchEvent(new Event('error')));
  expect(renewals).toBe(1);
  expect(container.querySelector('[data-testid="image-placeholder"]')?.textContent).toBe(translate('de', ALL_MESSAGES.de, 'tracking.results.imageError'));
  expect(container.querySelector('[data-testid="result-format"]')?.textContent).toBe('4:5 Porträt');
});
