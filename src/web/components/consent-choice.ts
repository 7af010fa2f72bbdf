// The visitor's consent choice as the browser keeps it (consent.tsx), in a file of its own so that the lazily
// loaded banner (consent-dialog.tsx) takes its types without importing the provider that loads it.
import { CONSENT_KINDS, type ConsentServices } from '../../domain/site.js';

export const CONSENT_STORAGE_KEY = 'consent';
/** Asked again when the services change. */
const CONSENT_VERSION = 1;

export type ConsentKind = keyof ConsentServices;
export type ConsentChoice = Record<ConsentKind, boolean>;

interface Stored extends ConsentChoice {
  version: number;
  /** The services asked about, so a newly configured one is asked again. */
  services: string[];
  at: string;
}

function serviceIds(services: ConsentServices): string[] {
  return CONSENT_KINDS.flatMap((kind) => (services[kind] ? [`${kind}:${services[kind].scriptUrl}`] : []));
}

export function readChoice(services: ConsentServices): ConsentChoice | null {
  try {
    const stored = JSON.parse(localStorage.getItem(CONSENT_STORAGE_KEY) ?? 'null') as Stored | null;
    if (!stored || stored.version !== CONSENT_VERSION || stored.services.join() !== serviceIds(services).join()) return null;
    return { analytics: stored.analytics === true, chat: stored.chat === true };
  } catch {
    return null;
  }
}

export function storeChoice(services: ConsentServices, choice: ConsentChoice): void {
  const stored: Stored = { ...choice, version: CONSENT_VERSION, services: serviceIds(services), at: new Date().toISOString() };
  try {
    localStorage.setItem(CONSENT_STORAGE_KEY, JSON.stringify(stored));
  } catch {
    // Without storage the banner simply asks again on the next page load.
  }
}
