// The one source of truth for what the shop sells (docs/rules.md §1).
// Texts for these keys live in the i18n catalogues (namespace "catalog").

export const LANGUAGES = ['de', 'en', 'es'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'de';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

export const VAT_RATE_PERCENT = 19;
export const CURRENCY = 'EUR';
export const OUTPUT_DPI = 300;

export const PACKAGE_KEYS = ['basic', 'pro', 'premium'] as const;
export type PackageKey = (typeof PACKAGE_KEYS)[number];

export interface PackageDefinition {
  key: PackageKey;
  priceCents: number;
  imageCount: number;
  outfits: number;
  backgrounds: number;
  deliveryHours: number;
  hasRefinement: boolean;
  popular: boolean;
  includesExpress: boolean;
  commercialLicense: boolean;
  colourAdjustment: boolean;
  /** Pictures the customer can have made again, free, within RETENTION.revisionDays of delivery. */
  redoPictures: number;
}

export const PACKAGES: Readonly<Record<PackageKey, PackageDefinition>> = {
  basic: {
    key: 'basic',
    priceCents: 1490,
    imageCount: 3,
    outfits: 1,
    backgrounds: 1,
    deliveryHours: 48,
    hasRefinement: false,
    popular: false,
    includesExpress: false,
    commercialLicense: false,
    colourAdjustment: false,
    redoPictures: 2,
  },
  pro: {
    key: 'pro',
    priceCents: 3490,
    imageCount: 10,
    outfits: 3,
    backgrounds: 3,
    deliveryHours: 24,
    hasRefinement: true,
    popular: true,
    includesExpress: false,
    commercialLicense: false,
    colourAdjustment: false,
    redoPictures: 4,
  },
  premium: {
    key: 'premium',
    priceCents: 6990,
    imageCount: 20,
    outfits: 5,
    backgrounds: 5,
    deliveryHours: 12,
    hasRefinement: true,
    popular: false,
    includesExpress: true,
    commercialLicense: true,
    colourAdjustment: true,
    redoPictures: 8,
  },
};

export const EXTRA_KEYS = ['extra_variants', 'express_delivery'] as const;
export type ExtraKey = (typeof EXTRA_KEYS)[number];

export interface ExtraDefinition {
  key: ExtraKey;
  priceCents: number;
  /** Additional result images this extra adds. */
  addsImages: number;
  /** Delivery time in hours when this extra is booked, if it changes it. */
  deliveryHours: number | null;
}

export const EXTRAS: Readonly<Record<ExtraKey, ExtraDefinition>> = {
  extra_variants: { key: 'extra_variants', priceCents: 999, addsImages: 10, deliveryHours: null },
  express_delivery: { key: 'express_delivery', priceCents: 1499, addsImages: 0, deliveryHours: 6 },
};

/** Premium already includes express delivery, so it is not offered there. */
export function isExtraOffered(pkg: PackageKey, extra: ExtraKey): boolean {
  if (extra === 'express_delivery') return !PACKAGES[pkg].includesExpress;
  return true;
}

export function offeredExtras(pkg: PackageKey): ExtraKey[] {
  return EXTRA_KEYS.filter((extra) => isExtraOffered(pkg, extra));
}

export const GENDERS = ['male', 'female', 'diverse'] as const;
export type Gender = (typeof GENDERS)[number];

export const BASE_STYLES = ['professional', 'casual', 'creative'] as const;
export type BaseStyle = (typeof BASE_STYLES)[number];

export const LOCATIONS = ['office', 'studio', 'creative'] as const;
export type Location = (typeof LOCATIONS)[number];

export const OUTFITS = ['business', 'smart_casual', 'casual'] as const;
export type Outfit = (typeof OUTFITS)[number];

export const UPLOAD_LIMITS = {
  minPhotos: 3,
  maxPhotos: 10,
  maxFileBytes: 10 * 1024 * 1024,
  /** Shortest side in pixels; the privacy text states this number. */
  minShortSidePx: 1024,
  /** Decoded pixel limit against decompression bombs. */
  maxPixels: 50_000_000,
} as const;

/**
 * The request header that carries a photo's file name (percent-encoded) when the wizard sends the photo as the
 * request's body; the server reads it, the wizard writes it.
 */
export const PHOTO_NAME_HEADER = 'x-file-name';

/** The upload size limit in whole megabytes, as texts quote it. */
export const MAX_UPLOAD_MB = Math.round(UPLOAD_LIMITS.maxFileBytes / (1024 * 1024));

export const RETENTION = {
  /** Uploads and results are deleted this many days after completion. */
  daysAfterCompletion: 30,
  /** Uploads of unpaid drafts are deleted after this many hours. */
  unpaidDraftHours: 24,
  /** A team member's photos that were never sent (the team paid for them) are deleted this many days after joining. */
  unsentMemberDays: 30,
  /** Free retouching can be asked for within this many days of completion. */
  revisionDays: 7,
} as const;

/** Hours until delivery for a package with the given extras. */
export function deliveryHours(pkg: PackageKey, extras: readonly ExtraKey[]): number {
  const base = PACKAGES[pkg].deliveryHours;
  const express = extras.includes('express_delivery') && isExtraOffered(pkg, 'express_delivery');
  return express ? Math.min(base, EXTRAS.express_delivery.deliveryHours ?? base) : base;
}

/** Number of result images a finished order must have. */
export function requiredResultCount(pkg: PackageKey, extras: readonly ExtraKey[]): number {
  return extras.reduce((count, extra) => count + EXTRAS[extra].addsImages, PACKAGES[pkg].imageCount);
}
