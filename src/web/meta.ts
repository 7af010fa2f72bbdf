// Title and description per page, used by the server for the HTML head and by the browser on navigation.
import type { CatalogView } from '../domain/catalog-view.js';
import type { SiteInfo } from '../domain/site.js';
import { copyVars } from './copy-vars.js';
import { translate, type LoadedMessages } from '../i18n/messages.js';
import type { PageKey } from './routes.js';

export interface PageMeta {
  title: string;
  description: string;
  /** Pages of one customer's order are not for search engines. */
  noindex?: boolean;
}

/** Pages whose title and description live in common.meta.pages.<page> (their own texts load with them). */
const COMMON_META: readonly PageKey[] = ['impressum', 'datenschutz', 'agb', 'barrierefreiheit', 'guideApplicationPhotos', 'guideLinkedin', 'guideAiTest', 'offline'];

export function pageMeta(page: PageKey, messages: LoadedMessages, site: SiteInfo, catalog: CatalogView): PageMeta {
  const vars = copyVars(catalog, site);
  if (COMMON_META.includes(page)) {
    return {
      title: translate(messages, `common.meta.pages.${page}.title`, vars),
      description: translate(messages, `common.meta.pages.${page}.description`, vars),
      ...(page === 'offline' ? { noindex: true } : {}),
    };
  }
  switch (page) {
    case 'home':
      return { title: translate(messages, 'common.meta.homeTitle', vars), description: translate(messages, 'common.meta.homeDescription', vars) };
    case 'order':
      return { title: translate(messages, 'order.meta.title', vars), description: translate(messages, 'order.meta.description', vars), noindex: true };
    case 'tracking':
      return { title: translate(messages, 'orderStatus.meta.trackingTitle', vars), description: translate(messages, 'orderStatus.meta.trackingDescription', vars) };
    case 'orderStatus':
      return { title: translate(messages, 'orderStatus.meta.title', vars), description: translate(messages, 'orderStatus.meta.trackingDescription', vars), noindex: true };
    case 'widerruf':
      return { title: translate(messages, 'withdrawal.meta.title', vars), description: translate(messages, 'withdrawal.meta.description', vars) };
    case 'kontakt':
      return { title: translate(messages, 'contact.meta.title', vars), description: translate(messages, 'contact.meta.description', vars) };
    case 'admin':
      return { title: `Backoffice | ${site.name}`, description: 'Backoffice', noindex: true };
    case 'success':
      return { title: translate(messages, 'order.meta.successTitle', vars), description: translate(messages, 'order.meta.description', vars), noindex: true };
    default:
      return { title: site.name, description: site.name };
  }
}

export function pageTitle(page: PageKey, messages: LoadedMessages, site: SiteInfo, catalog: CatalogView): string {
  return pageMeta(page, messages, site, catalog).title;
}
