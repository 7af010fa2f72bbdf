// German labels and formats for the back office (staff work in German only; no i18n catalogue).
import { SHOP_TIME_ZONE } from '../../../domain/dates.js';
// Product names come from the German customer catalogue: one source for what a package is called.
import catalog from '../../../i18n/de/catalog.json' with { type: 'json' };

export const ORDER_STATUS_LABELS: Record<string, string> = {
  created: 'Erstellt',
  paid: 'Bezahlt',
  in_progress: 'In Bearbeitung',
  completed: 'Abgeschlossen',
  cancelled: 'Storniert',
};

/** Colours per spec section 4: created blue, paid green, in progress yellow, completed green, cancelled red. */
export const ORDER_STATUS_TONES: Record<string, string> = {
  created: 'blue',
  paid: 'green',
  in_progress: 'yellow',
  completed: 'green',
  cancelled: 'red',
};

export const PAYMENT_STATUS_LABELS: Record<string, string> = {
  pending: 'Ausstehend',
  paid: 'Bezahlt',
  failed: 'Fehlgeschlagen',
  refunded: 'Erstattet',
};

const PAYMENT_STATUS_TONES: Record<string, string> = { pending: 'yellow', paid: 'green', failed: 'red', refunded: 'grey' };

export const RESULT_STATUS_LABELS: Record<string, string> = {
  draft: 'Entwurf',
  active: 'Aktiv',
  archived: 'Archiviert',
  deleted: 'Gelöscht',
};

const RESULT_STATUS_TONES: Record<string, string> = { draft: 'yellow', active: 'green', archived: 'grey', deleted: 'red' };

export const GENDER_LABELS: Record<string, string> = { male: 'Männlich', female: 'Weiblich', diverse: 'Divers' };

const ACTOR_LABELS: Record<string, string> = { system: 'System', staff: 'Team', customer: 'Kunde' };

const HISTORY_EVENT_LABELS: Record<string, string> = {
  order_created: 'Bestellung angelegt',
  order_placed: 'Bestellung aufgegeben',
  payment_pending: 'Zahlung ausstehend',
  payment_received: 'Zahlung eingegangen',
  payment_failed: 'Zahlung fehlgeschlagen',
  checkout_expired: 'Bezahlvorgang abgelaufen',
  status_changed: 'Status geändert',
  revision_requested: 'Nachbesserung angefragt',
  revision_answered: 'Nachbesserung beantwortet',
  photos_deleted: 'Fotos gelöscht',
  photos_deleted_by_customer: 'Fotos vom Kunden gelöscht',
  production_started: 'Bearbeitung begonnen (Studio-Entwürfe)',
  refund_requested: 'Erstattung angefordert',
  refund_confirmed: 'Erstattung bestätigt (Zahlungsanbieter)',
  refund_failed: 'Erstattung fehlgeschlagen',
  withdrawal_received: 'Widerruf eingegangen',
};

const REVISION_STATUS_LABELS: Record<string, string> = { open: 'Offen', resolved: 'Erledigt', done: 'Erledigt', closed: 'Geschlossen' };

const LANGUAGE_LABELS: Record<string, string> = { de: 'Deutsch', en: 'Englisch', es: 'Spanisch' };

function named(table: Record<string, { name: string }>, key: string | null): string {
  if (!key) return '–';
  return table[key]?.name ?? key;
}

export const packageName = (key: string | null) => named(catalog.packages, key);
export const styleName = (key: string | null) => named(catalog.styles, key);
export const locationName = (key: string | null) => named(catalog.locations, key);
export const outfitName = (key: string | null) => named(catalog.outfits, key);
export const extraName = (key: string) => named(catalog.extras, key);

export const label = (table: Record<string, string>, key: string | null | undefined): string => (key ? (table[key] ?? key) : '–');
export const orderStatusLabel = (status: string) => label(ORDER_STATUS_LABELS, status);
export const paymentStatusLabel = (status: string) => label(PAYMENT_STATUS_LABELS, status);
export const resultStatusLabel = (status: string) => label(RESULT_STATUS_LABELS, status);
export const genderLabel = (gender: string | null) => label(GENDER_LABELS, gender);
export const actorLabel = (actor: string) => label(ACTOR_LABELS, actor);
export const historyEventLabel = (event: string) => label(HISTORY_EVENT_LABELS, event);
export const revisionStatusLabel = (status: string) => label(REVISION_STATUS_LABELS, status);
export const languageLabel = (language: string | null) => label(LANGUAGE_LABELS, language);

export const orderStatusTone = (status: string) => ORDER_STATUS_TONES[status] ?? 'grey';
export const paymentStatusTone = (status: string) => PAYMENT_STATUS_TONES[status] ?? 'grey';
export const resultStatusTone = (status: string) => RESULT_STATUS_TONES[status] ?? 'grey';

/** Spec: the order_number, else the first 8 characters of the id. */
export function displayOrderNumber(order: { id: string; orderNumber: string | null }): string {
  return order.orderNumber || order.id.slice(0, 8);
}

const DATE_TIME = new Intl.DateTimeFormat('de-DE', {
  timeZone: SHOP_TIME_ZONE,
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});

/** "05.03.2025, 14:30" in Berlin time, whatever the staff member's computer says. */
export function formatDateTime(value: string | null | undefined): string {
  if (!value) return '–';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : DATE_TIME.format(date);
}

const SIZE = new Intl.NumberFormat('de-DE', { maximumFractionDigits: 1 });

export function formatBytes(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined) return '';
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${SIZE.format(bytes / 1024)} KB`;
  return `${SIZE.format(bytes / (1024 * 1024))} MB`;
}

/** "2,4 MB · 1024 × 1536 px", leaving out what is unknown. */
export function fileFacts(file: { fileSize: number | null; width: number | null; height: number | null }): string {
  return [formatBytes(file.fileSize), file.width && file.height ? `${file.width} × ${file.height} px` : '']
    .filter(Boolean)
    .join(' · ');
}

/**
 * The order list's pager: "Seite 3 von 12", or, where the server stopped counting (more orders match than its
 * limit), "Seite 50 von mehr als 40" with "next" as long as the page is full.
 */
export function orderPager(list: { total: number; totalExact: boolean; pageSize: number; orders: readonly unknown[] }, page: number) {
  const pageCount = Math.max(1, Math.ceil(list.total / Math.max(1, list.pageSize)));
  const hasNext = page < pageCount || (!list.totalExact && list.orders.length === list.pageSize);
  return {
    shown: pageCount > 1 || page > 1,
    label: `Seite ${page.toLocaleString('de-DE')} von ${list.totalExact ? pageCount.toLocaleString('de-DE') : `mehr als ${pageCount.toLocaleString('de-DE')}`}`,
    hasNext,
  };
}

export function pluralOrders(n: number, exact = true): string {
  if (!exact) return `Mehr als ${n.toLocaleString('de-DE')} Bestellungen`;
  return `${n.toLocaleString('de-DE')} ${n === 1 ? 'Bestellung' : 'Bestellungen'}`;
}

/** The server's refusals, for staff. */
export const STUDIO_ERRORS: Record<string, string> = {
  notStudioMode: 'Neu erstellen geht nur im Modus Studio.',
  orderLocked: 'Die Bestellung ist nicht bezahlt oder schon abgeschlossen.',
  jobRunning: 'Es läuft noch ein Auftrag für diese Bestellung. Bitte warten, bis er fertig ist.',
  generatorNotConfigured: 'Kein externer Generator eingerichtet (GENERATOR).',
};
