// Proofs that let a browser reach an order without an account (decisions.md section 5):
// the draft token while ordering, and the signed status link from the mails and the success page.
import { createHmac, timingSafeEqual } from 'node:crypto';

type Purpose = 'draft' | 'status';

function sign(secret: string, purpose: Purpose, orderId: string): string {
  return createHmac('sha256', secret).update(`${purpose}:${orderId.toLowerCase()}`).digest('base64url').slice(0, 32);
}

function matches(expected: string, given: string | undefined): boolean {
  if (!given || given.length !== expected.length) return false;
  return timingSafeEqual(Buffer.from(expected), Buffer.from(given));
}

export const draftToken = (secret: string, orderId: string) => sign(secret, 'draft', orderId);
export const statusToken = (secret: string, orderId: string) => sign(secret, 'status', orderId);
export const isDraftToken = (secret: string, orderId: string, token: string | undefined) => matches(draftToken(secret, orderId), token);
export const isStatusToken = (secret: string, orderId: string, token: string | undefined) => matches(statusToken(secret, orderId), token);

export function statusUrl(publicUrl: string, secret: string, orderId: string): string {
  return `${publicUrl}/order-status/${orderId}?token=${statusToken(secret, orderId)}`;
}
