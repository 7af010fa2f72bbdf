// The team order's form: its fields, the ids their errors take the focus by, and what its price and VAT hint need.
import type { BaseStyle, Location, Outfit, PackageKey } from '../../../domain/catalog.js';
import type { CatalogView } from '../../../domain/catalog-view.js';
import { localeFor } from '../../../domain/money.js';

export const FORM_STORAGE_KEY = 'team-order';

export interface TeamForm {
  package: PackageKey;
  seats: string;
  style: BaseStyle | null;
  location: Location | null;
  outfit: Outfit | null;
  companyName: string;
  companyAddress: string;
  vatId: string;
  email: string;
}

export const INITIAL: TeamForm = { package: 'pro', seats: '5', style: 'professional', location: 'studio', outfit: null, companyName: '', companyAddress: '', vatId: '', email: '' };

/** The form's fields in the order they appear: the first one with an error takes the focus. */
export const FIELD_ORDER = ['package', 'seats', 'style', 'location', 'outfit', 'companyName', 'companyAddress', 'vatId', 'email', 'businessConfirmed'] as const;
export type Field = (typeof FIELD_ORDER)[number];
export const FIELD_IDS: Record<Field, string> = {
  package: 'team-package',
  seats: 'team-seats',
  style: 'team-style',
  location: 'team-location',
  outfit: 'team-outfit',
  companyName: 'team-company',
  companyAddress: 'team-address',
  vatId: 'team-vat-id',
  email: 'team-email',
  businessConfirmed: 'team-business',
};

export function campaignFromCatalog(catalog: CatalogView) {
  const c = catalog.campaign;
  return c ? { id: c.id, percent: c.percent, packages: c.packages, startsAt: new Date(c.startsAt), endsAt: new Date(c.endsAt) } : null;
}

/** The country of a VAT ID's prefix, in the page's language (VIES writes Greece EL). */
export function countryName(prefix: string, language: 'de' | 'en' | 'es'): string {
  try {
    return new Intl.DisplayNames([localeFor(language)], { type: 'region' }).of(prefix === 'EL' ? 'GR' : prefix) ?? prefix;
  } catch {
    return prefix;
  }
}
