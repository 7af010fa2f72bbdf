// Order-mail data for tests and the mail previews (scripts/mail-previews.ts): one fixed order in each language.
import { deliveryHours, requiredResultCount, type ExtraKey, type Language, type PackageKey } from '../../domain/catalog.js';
import { priceOrder } from '../../domain/pricing.js';
import type { OrderMailData } from '../modules/orders/order-mails.js';

export const WAIVER_TEXTS: Record<Language, string> = {
  de: 'Ich verlange ausdrücklich, dass Sie vor Ablauf der Widerrufsfrist mit der Ausführung beginnen.',
  en: 'I expressly request that you begin before the end of the withdrawal period.',
  es: 'Solicito expresamente que comencéis antes de que finalice el plazo de desistimiento.',
};

export const STATUS_URL = 'https://shop.example/order-status/5b0f7c8e-2f55-4a51-9a3e-0d1f3c6b7a21?token=abc&lang=de';
export const RETRY_URL = 'https://shop.example/checkout/retry/5b0f7c8e?token=xyz&step=pay';
export const TERMS_URL = 'https://shop.example/agb';
export const WITHDRAWAL_URL = 'https://shop.example/widerruf';
export const PRIVACY_URL = 'https://shop.example/datenschutz';

export function mailData(
  language: Language,
  options: { package?: PackageKey; extras?: ExtraKey[]; discountPercent?: number } = {},
  overrides: Partial<OrderMailData> = {},
): OrderMailData & { retryUrl: string } {
  const pkg = options.package ?? 'pro';
  const extras = options.extras ?? [];
  const now = new Date('2026-03-12T13:05:00Z');
  const percent = options.discountPercent ?? 0;
  const campaign =
    percent > 0
      ? { id: 'spring', percent, packages: ['pro', 'premium'] as const, startsAt: new Date('2026-03-01T00:00:00Z'), endsAt: new Date('2026-04-01T00:00:00Z') }
      : null;
  const price = priceOrder({ package: pkg, extras, campaign, now });
  return {
    language,
    orderNumber: 'BF-7K3M9Q2X',
    email: 'kunde@example.de',
    package: pkg,
    style: 'professional',
    location: 'office',
    outfit: 'business',
    newOutfits: true,
    gender: 'female',
    extras: price.extras,
    photoCount: 5,
    prices: {
      packageListCents: price.packageListCents,
      discountPercent: price.discountPercent,
      discountCents: price.discountCents,
      packageCents: price.packageCents,
      extras: price.lines.filter((line) => line.kind === 'extra').map((line) => ({ key: line.key as ExtraKey, cents: line.cents })),
      netCents: price.netCents,
      vatCents: price.vatCents,
      vatRatePercent: price.vatRatePercent,
      grossCents: price.grossCents,
    },
    deliveryHours: deliveryHours(pkg, extras),
    resultCount: requiredResultCount(pkg, extras),
    orderedAt: now,
    paidAt: new Date('2026-03-12T13:09:00Z'),
    waiver: { acceptedAt: new Date('2026-03-12T13:04:30Z'), textVersion: 'waiver-2026-03', text: WAIVER_TEXTS[language] },
    statusUrl: STATUS_URL,
    termsUrl: TERMS_URL,
    withdrawalUrl: WITHDRAWAL_URL,
    privacyUrl: PRIVACY_URL,
    site: {
      name: 'FotoAtelier',
      legalName: 'FotoAtelier GmbH',
      supportEmail: 'support@shop.example',
      address: 'Beispielweg 1\n10115 Berlin',
      phone: '+49 30 1234567',
    },
    retryUrl: RETRY_URL,
    ...overrides,
  };
}

