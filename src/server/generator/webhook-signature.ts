// Webhook authenticity for both generator kinds.
// Replicate signs its webhooks as Standard Webhooks define them (https://replicate.com/docs/topics/webhooks/verify-webhook):
// headers webhook-id, webhook-timestamp, webhook-signature ("v1,<base64>", several separated by spaces), an
// HMAC-SHA256 over "{id}.{timestamp}.{body}" keyed with the base64 part of the "whsec_…" secret. The official
// client's validateWebhook checks the HMAC; the timestamp window (against replays) is ours, as the docs advise.
// A Cog container signs nothing: its webhook address carries a token only we can make (HMAC of the prediction id).
import { createHmac, timingSafeEqual } from 'node:crypto';
import { validateWebhook } from 'replicate';

const TOLERANCE_SECONDS = 5 * 60;

function key(secret: string): Buffer {
  return Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
}

/** As Replicate signs (used by the test stand-in to sign its webhooks). */
export function signWebhook(secret: string, id: string, timestamp: number, body: string): string {
  return `v1,${createHmac('sha256', key(secret)).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

export async function verifyWebhook(secret: string, headers: { id?: string | undefined; timestamp?: string | undefined; signature?: string | undefined }, body: string, now: Date): Promise<boolean> {
  if (!headers.id || !headers.timestamp || !headers.signature || !body) return false;
  const timestamp = Number(headers.timestamp);
  if (!Number.isInteger(timestamp) || Math.abs(now.getTime() / 1000 - timestamp) > TOLERANCE_SECONDS) return false;
  try {
    return await validateWebhook({ id: headers.id, timestamp: headers.timestamp, signature: headers.signature, body, secret });
  } catch {
    return false;
  }
}

/** The token in a Cog prediction's webhook address. */
export function webhookToken(secret: string, predictionId: string): string {
  return createHmac('sha256', secret).update(`cog-webhook:${predictionId}`).digest('base64url');
}

export function verifyWebhookToken(secret: string, predictionId: string, token: string): boolean {
  const expected = Buffer.from(webhookToken(secret, predictionId));
  const given = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

