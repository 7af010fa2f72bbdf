// First-party counting (docs/rules.md §4): which page views and events the shop counts. Only names
// and coarse details (a package, a photo count, an error code): never an address, id or e-mail.
import { PACKAGE_KEYS, UPLOAD_LIMITS } from './catalog.js';

/** The spec's analytics events (section 7), counted without cookies or personal data. */
export const METRIC_EVENTS = [
  'upload_start_cta',
  'transform_images_cta',
  'main_pricing_cta',
  'pricing_basic_cta',
  'pricing_pro_cta',
  'pricing_premium_cta',
  'final_cta',
  'cta_click',
  'package_selected',
  'upload_count',
  'begin_checkout',
  'error_occurred',
  // Counted by the server when the payment provider confirms a payment; the browser cannot send it.
  'purchase',
] as const;
export type MetricEvent = (typeof METRIC_EVENTS)[number];

/** Events only the server records. */
export const SERVER_ONLY_EVENTS: readonly MetricEvent[] = ['purchase'];

const DETAIL_WORD = /^[a-zA-Z][a-zA-Z0-9_]{0,39}$/;

/** The detail an event may carry; anything else is dropped, so no free text ever reaches the counters. */
export function metricDetail(event: MetricEvent, detail: unknown): string | null {
  if (detail === undefined || detail === null || detail === '') return '';
  const value = String(detail);
  switch (event) {
    case 'package_selected':
    case 'purchase':
      return (PACKAGE_KEYS as readonly string[]).includes(value) ? value : null;
    case 'upload_count': {
      const n = Number(value);
      return Number.isInteger(n) && n >= 1 && n <= UPLOAD_LIMITS.maxPhotos ? String(n) : null;
    }
    case 'error_occurred':
    case 'cta_click':
      return DETAIL_WORD.test(value) ? value : null;
    default:
      return null;
  }
}

/** What staff see: totals per page, per day and per event since `since` (a day in Germany, YYYY-MM-DD). */
export interface MetricsSummary {
  since: string;
  pageViews: { path: string; count: number }[];
  pageViewsByDay: { day: string; count: number }[];
  events: { name: string; detail: string; count: number }[];
}
