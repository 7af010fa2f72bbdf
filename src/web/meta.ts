// Title and description per page, used by the server for the HTML head and by the browser on navigation.
import type { CatalogView } from '../domain/catalog-view.js';
import type { SiteInfo } from '../domain/site.js';
import { copyVars } from './copy/copy-vars.js';
import type { Language } from '../domain/catalog.js';
import type { MessageVars } from '../i18n/format.js';
import { lookup, translate, type LoadedMessages } from '../i18n/messages.js';
import type { PageKey } from './routes.js';

export interface PageMeta {
  title: string;
  description: string;
  /** Pages of one customer's order are not for search engines. */
  noindex?: boolean;
}

/** Pages whose title and description live in common.meta.pages.<page> (their own texts load with them). */
const COMMON_META: readonly PageKey[] = ['impressum', 'datenschutz', 'agb', 'barrierefreiheit', 'ueberUns', 'guideApplicationPhotos', 'guideLinkedin', 'guideAiTest', 'offline'];

export function pageMeta(page: PageKey, language: Language, messages: LoadedMessages, site: SiteInfo, catalog: CatalogView): PageMeta {
  const vars = copyVars(catalog, site);
  const t = (key: string, values: MessageVars) => translate(language, messages, key, values);
  if (COMMON_META.includes(page)) {
    return {
      title: t(`common.meta.pages.${page}.title`, vars),
      description: t(`common.meta.pages.${page}.description`, vars),
      ...(page === 'offline' ? { noindex: true } : {}),
    };
  }
  switch (page) {
    case 'home':
      return { title: t('common.meta.homeTitle', vars), description: t('common.meta.homeDescription', vars) };
    case 'order':
      return { title: t('order.meta.title', vars), description: t('order.meta.description', vars), noindex: true };
    case 'tracking':
      return { title: t('orderStatus.meta.trackingTitle', vars), description: t('orderStatus.meta.trackingDescription', vars) };
    case 'orderStatus':
      return { title: t('orderStatus.meta.title', vars), description: t('orderStatus.meta.trackingDescription', vars), noindex: true };
    case 'widerruf':
      return { title: t('withdrawal.meta.title', vars), description: t('withdrawal.meta.description', vars) };
    case 'kontakt':
      return { title: t('contact.meta.title', vars), description: t('contact.meta.description', vars) };
    case 'admin':
      return { title: `Backoffice | ${site.name}`, description: 'Backoffice', noindex: true };
    case 'team':
    case 'teamStatus':
    case 'teamJoin':
    case 'teamMember': {
      // The team's texts arrive with its pages: until they have (a click from another page), the shop's name.
      if (!lookup(messages, `team.meta.${page}.title`)) return { title: site.name, description: site.name, ...(page === 'team' ? {} : { noindex: true }) };
      return {
        title: t(`team.meta.${page}.title`, vars),
        description: t(`team.meta.${page}.description`, vars),
        // The order form is a public page; the pages behind a team's links belong to one company and its people.
        ...(page === 'team' ? {} : { noindex: true }),
      };
    }
    case 'success':
      return { title: t('order.meta.successTitle', vars), description: t('order.meta.description', vars), noindex: true };
    default:
      return { title: site.name, description: site.name };
  }
}

export function pageTitle(page: PageKey, language: Language, messages: LoadedMessages, site: SiteInfo, catalog: CatalogView): string {
  return pageMeta(page, language, messages, site, catalog).title;
}
