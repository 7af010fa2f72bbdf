// Signed webhooks as Standard Webhooks define them (Replicate uses them): an HMAC-SHA256 over
// "{webhook-id}.{webhook-timestamp}.{body}" with the base64 secret after "whsec_", sent as "v1,<base64>".
import { createHmac, timingSafeEqual } from 'node:crypto';

const TOLERANCE_SECONDS = 5 * 60;

function key(secret: string): Buffer {
  return Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
}

export function signWebhook(secret: string, id: string, timestamp: number, body: string): string {
  return `v1,${createHmac('sha256', key(secret)).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

export function verifyWebhook(secret: string, headers: { id?: string; timestamp?: string; signature?: string }, body: string, now: Date): boolean {
  if (!headers.id || !headers.timestamp || !headers.signature) return false;
  const timestamp = Number(headers.timestamp);
  if (!Number.isInteger(timestamp) || Math.abs(now.getTime() / 1000 - timestamp) > TOLERANCE_SECONDS) return false;
  const expected = Buffer.from(signWebhook(secret, headers.id, timestamp, body).slice(3));
  // Several signatures may be sent (key rotation): any that matches counts.
  return headers.signature.split(' ').some((candidate) => {
    const [version, value] = candidate.split(',');
    if (version !== 'v1' || !value) return false;
    const given = Buffer.from(value);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
