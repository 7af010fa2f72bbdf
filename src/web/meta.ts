// Title and description per page, used by the server for the HTML head and by the browser on navigation.
import { formatMoney } from '../domain/money.js';
import type { CatalogView } from '../domain/catalog-view.js';
import type { SiteInfo } from '../domain/site.js';
import { translate, type Messages } from './i18n/messages.js';
import type { PageKey } from './routes.js';

export interface PageMeta {
  title: string;
  description: string;
  /** Pages of one customer's order are not for search engines. */
  noindex?: boolean;
}

export function pageMeta(page: PageKey, messages: Messages, site: SiteInfo, catalog: CatalogView): PageMeta {
  const vars = { site: site.name, price: formatMoney(catalog.fromPriceCents) };
  switch (page) {
    case 'home':
      return { title: translate(messages, 'common.meta.homeTitle', vars), description: translate(messages, 'common.meta.homeDescription', vars) };
    case 'order':
      return { title: translate(messages, 'order.meta.title', vars), description: translate(messages, 'order.meta.description', vars), noindex: true };
    case 'tracking':
      return { title: translate(messages, 'orderStatus.meta.trackingTitle', vars), description: translate(messages, 'orderStatus.meta.trackingDescription', vars) };
    case 'orderStatus':
      return { title: translate(messages, 'orderStatus.meta.title', vars), description: translate(messages, 'orderStatus.meta.trackingDescription', vars), noindex: true };
    case 'kontakt':
      return { title: translate(messages, 'contact.meta.title', vars), description: translate(messages, 'contact.meta.description', vars) };
    case 'impressum':
      return { title: `${translate(messages, 'legal.impressum.title')} | ${site.name}`, description: `${translate(messages, 'legal.impressum.title')} – ${site.legalName}` };
    case 'datenschutz':
      return { title: `${translate(messages, 'legal.privacy.title')} | ${site.name}`, description: `${translate(messages, 'legal.privacy.title')} – ${site.legalName}` };
    case 'agb':
      return { title: `${translate(messages, 'legal.terms.title')} | ${site.name}`, description: `${translate(messages, 'legal.terms.title')} – ${site.legalName}` };
    case 'barrierefreiheit':
      return { title: `${translate(messages, 'legal.accessibility.title')} | ${site.name}`, description: `${translate(messages, 'legal.accessibility.title')} – ${site.legalName}` };
    case 'admin':
      return { title: `Backoffice | ${site.name}`, description: 'Backoffice', noindex: true };
    case 'success':
      return { title: translate(messages, 'order.meta.successTitle', vars), description: translate(messages, 'order.meta.description', vars), noindex: true };
  }
}

export function pageTitle(page: PageKey, messages: Messages, site: SiteInfo, catalog: CatalogView): string {
  return pageMeta(page, messages, site, catalog).title;
}
