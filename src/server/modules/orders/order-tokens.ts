// Proofs that let a browser reach an order without an account (docs/rules.md §5): the draft token while
// ordering, the signed status link from the mails, the success page and tracking, and the invoice link.
// Status and invoice links carry the moment they were made and expire after STATUS_LINK_LIFETIME_MS; every mail
// and every successful tracking lookup makes a fresh one. A status link made before the order's photos were
// deleted (by the customer, or by the deletion job) no longer opens anything: deleting revokes them.
import { createHmac, timingSafeEqual } from 'node:crypto';

/** How long a status or invoice link works: delivery, 7 days for a revision, 30 days of keeping the photos, and a margin. */
export const STATUS_LINK_LIFETIME_MS = 60 * 24 * 3600 * 1000;

function mac(secret: string, text: string): string {
  return createHmac('sha256', secret).update(text).digest('base64url').slice(0, 32);
}

function matches(expected: string, given: string): boolean {
  return given.length === expected.length && timingSafeEqual(Buffer.from(expected), Buffer.from(given));
}

export const draftToken = (secret: string, orderId: string) => mac(secret, `draft:${orderId.toLowerCase()}`);
export const isDraftToken = (secret: string, orderId: string, token: string | undefined) => token !== undefined && matches(draftToken(secret, orderId), token);

/** `<issued, milliseconds in base 36>.<signature>` */
function timedToken(secret: string, subject: string, issuedAt: Date): string {
  const issued = issuedAt.getTime().toString(36);
  return `${issued}.${mac(secret, `${subject}:${issued}`)}`;
}

/** When a correctly signed timed token was made; null for anything else. */
function issuedAtOf(secret: string, subject: string, token: string | undefined): Date | null {
  const match = /^([0-9a-z]{1,12})\.([A-Za-z0-9_-]{32})$/.exec(token ?? '');
  if (!match || !matches(mac(secret, `${subject}:${match[1]}`), match[2]!)) return null;
  return new Date(parseInt(match[1]!, 36));
}

const statusSubject = (orderId: string) => `status:${orderId.toLowerCase()}`;
const invoiceSubject = (orderId: string, invoiceId: string) => `invoice:${orderId.toLowerCase()}:${invoiceId.toLowerCase()}`;

export const statusToken = (secret: string, orderId: string, issuedAt: Date) => timedToken(secret, statusSubject(orderId), issuedAt);
export const invoiceToken = (secret: string, orderId: string, invoiceId: string, issuedAt: Date) => timedToken(secret, invoiceSubject(orderId, invoiceId), issuedAt);

/** The customer's link to their order; with `language` other than German it opens in that language. */
export function statusUrl(publicUrl: string, secret: string, orderId: string, issuedAt: Date, language?: string): string {
  const lang = language && language !== 'de' ? `&lang=${language}` : '';
  return `${publicUrl}/order-status/${orderId}?token=${statusToken(secret, orderId, issuedAt)}${lang}`;
}

/** A link without its time (in mails sent before links expired): taken as made when the order was. */
const legacyStatusToken = (secret: string, orderId: string) => mac(secret, statusSubject(orderId));

/** 'valid'; 'expired' for a genuine link that is too old or revoked; 'invalid' for anything we did not sign. */
export type LinkVerdict = 'valid' | 'expired' | 'invalid';

export function checkStatusToken(
  secret: string,
  order: { id: string; createdAt: Date; photosDeletedAt: Date | null },
  token: string | undefined,
  now: Date,
): LinkVerdict {
  let issuedAt = issuedAtOf(secret, statusSubject(order.id), token);
  if (!issuedAt && token !== undefined && matches(legacyStatusToken(secret, order.id), token)) issuedAt = order.createdAt;
  if (!issuedAt) return 'invalid';
  // A link from the future is not one of ours to honour (a clock far off, or a forged time: it was signed).
  if (issuedAt.getTime() > now.getTime() + 5 * 60 * 1000) return 'invalid';
  if (now.getTime() - issuedAt.getTime() > STATUS_LINK_LIFETIME_MS) return 'expired';
  // Deleting the photos revokes every link made until that moment.
  if (order.photosDeletedAt && issuedAt.getTime() <= order.photosDeletedAt.getTime()) return 'expired';
  return 'valid';
}

/** An invoice link: for one invoice, it expires but deleting the photos does not revoke it (invoices outlive photos). */
export function checkInvoiceToken(secret: string, orderId: string, invoiceId: string, token: string | undefined, now: Date): LinkVerdict {
  const issuedAt = issuedAtOf(secret, invoiceSubject(orderId, invoiceId), token);
  if (!issuedAt || issuedAt.getTime() > now.getTime() + 5 * 60 * 1000) return 'invalid';
  return now.getTime() - issuedAt.getTime() > STATUS_LINK_LIFETIME_MS ? 'expired' : 'valid';
}

/** A team's join link token: `<link id>.<signature>`; the link row decides whether it still works (revoked, seats). */
export const teamJoinToken = (secret: string, linkId: string) => `${linkId}.${mac(secret, `team-join:${linkId.toLowerCase()}`)}`;

/** The link id of a correctly signed join token; null for anything else. */
export function teamLinkIdOf(secret: string, token: string | undefined): string | null {
  const match = /^([0-9a-f-]{36})\.([A-Za-z0-9_-]{32})$/.exec(token ?? '');
  if (!match || !matches(mac(secret, `team-join:${match[1]!}`), match[2]!)) return null;
  return match[1]!;
}

/** The buyer's link to the team page (the team order's status token); with `language` other than German in that language. */
export function teamUrl(publicUrl: string, secret: string, teamOrderId: string, issuedAt: Date, language?: string): string {
  const lang = language && language !== 'de' ? `&lang=${language}` : '';
  return `${publicUrl}/team/${teamOrderId}?token=${statusToken(secret, teamOrderId, issuedAt)}${lang}`;
}

/** The join page of a team link. */
export function teamJoinUrl(publicUrl: string, secret: string, linkId: string, language?: string): string {
  const lang = language && language !== 'de' ? `?lang=${language}` : '';
  return `${publicUrl}/team/join/${teamJoinToken(secret, linkId)}${lang}`;
}
