// What the order mails show, built from the order row: shared by checkout (order received) and the payment
// events (paid, failed), which send their mails long after the request that placed the order.
import { deliveryHours, requiredResultCount, type Language } from '../../../domain/catalog.js';
import type { Capabilities } from '../../../domain/capabilities.js';
import type { Selection } from '../../../domain/order-selection.js';
import type { PriceBreakdown } from '../../../domain/pricing.js';
import type { SiteInfo } from '../../../domain/site.js';
import { textsIn } from '../../../i18n/all-messages.js';
import { extrasOf, type OrderRow } from './order-repository.js';
import type { OrderMailData } from './order-mails.js';
import { statusUrl } from './order-tokens.js';

export interface OrderMailContext {
  publicUrl: string;
  appSecret: string;
  site: SiteInfo;
  /** What the shop's pictures can be: the mails promise outfits only when they can be made. */
  capabilities: Capabilities;
  now: () => Date;
}

export function selectionOf(order: OrderRow): Selection {
  return {
    gender: (order.gender as Selection['gender']) ?? null,
    style: (order.styleBase as Selection['style']) ?? null,
    package: (order.package as Selection['package']) ?? null,
    location: (order.refineLocation as Selection['location']) ?? null,
    outfit: (order.refineOutfit as Selection['outfit']) ?? null,
    extras: extrasOf(order),
  };
}

/** The prices stored on the order at checkout, as a breakdown again (for mails after payment). */
export function storedPrice(order: OrderRow): PriceBreakdown {
  const extras = extrasOf(order);
  return {
    package: order.package as PriceBreakdown['package'],
    extras,
    lines: [
      { kind: 'package', key: order.package as PriceBreakdown['package'], listCents: order.packageListCents ?? 0, discountCents: order.discountCents, cents: order.packageCents ?? 0 },
      ...extras.map((key) => {
        const cents = key === 'extra_variants' ? order.featureExtraVariantsCents : order.featureExpressDeliveryCents;
        return { kind: 'extra' as const, key, listCents: cents, discountCents: 0, cents };
      }),
    ],
    packageListCents: order.packageListCents ?? 0,
    discountPercent: order.discountPercent,
    discountCents: order.discountCents,
    packageCents: order.packageCents ?? 0,
    extrasCents: order.extrasCents,
    grossCents: order.totalCents ?? 0,
    netCents: order.netCents ?? 0,
    vatCents: order.vatCents ?? 0,
    vatRatePercent: order.taxRatePercent,
  };
}

export function orderMailData(context: OrderMailContext, order: OrderRow, price: PriceBreakdown, photoCount: number): OrderMailData {
  const language = order.language as Language;
  const selection = selectionOf(order);
  const languageQuery = language === 'de' ? '' : `?lang=${language}`;
  return {
    language,
    orderNumber: order.orderNumber,
    email: order.email ?? '',
    package: price.package,
    style: selection.style,
    location: selection.location,
    outfit: context.capabilities.newOutfits ? selection.outfit : null,
    newOutfits: context.capabilities.newOutfits,
    gender: selection.gender,
    extras: price.extras,
    photoCount,
    prices: {
      packageListCents: price.packageListCents,
      discountPercent: price.discountPercent,
      discountCents: price.discountCents,
      packageCents: price.packageCents,
      extras: price.lines.filter((l) => l.kind === 'extra').map((l) => ({ key: l.key as 'extra_variants' | 'express_delivery', cents: l.cents })),
      netCents: price.netCents,
      vatCents: price.vatCents,
      vatRatePercent: price.vatRatePercent,
      grossCents: price.grossCents,
    },
    deliveryHours: deliveryHours(price.package, price.extras),
    resultCount: requiredResultCount(price.package, price.extras),
    orderedAt: order.orderedAt ?? context.now(),
    paidAt: order.paidAt,
    waiver:
      order.waiverAcceptedAt && order.waiverTextVersion
        ? {
            acceptedAt: order.waiverAcceptedAt,
            textVersion: order.waiverTextVersion,
            text: textsIn(language)('order.summary.waiver'),
          }
        : null,
    // Made when the mail is: every mail renews the customer's way in.
    statusUrl: statusUrl(context.publicUrl, context.appSecret, order.id, context.now(), language),
    termsUrl: `${context.publicUrl}/agb${languageQuery}`,
    privacyUrl: `${context.publicUrl}/datenschutz${languageQuery}`,
    withdrawalUrl: `${context.publicUrl}/widerruf${languageQuery}`,
    site: context.site,
  };
}
