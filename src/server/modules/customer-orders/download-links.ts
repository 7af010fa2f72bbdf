// Signed, expiring download links for results: one image or the ZIP of all (docs/rules.md §5).
import { createHmac, timingSafeEqual } from 'node:crypto';

/** The output formats a ZIP can hold alone (the customer's "all 1:1 pictures"). */
export const ZIP_FORMATS = ['portrait', 'square', 'application'] as const;
export type ZipFormat = (typeof ZIP_FORMATS)[number];

/** One image, the ZIP of all published pictures (of one format when named), or a team's ZIP (teams module). */
export type DownloadTarget = { kind: 'image'; imageId: string } | { kind: 'zip'; format?: ZipFormat } | { kind: 'teamZip'; variant: string };

function payload(orderId: string, target: DownloadTarget, exp: number): string {
  const what = target.kind === 'zip' ? (target.format ? `zip-${target.format}` : 'zip') : target.kind === 'teamZip' ? `team-zip-${target.variant}` : target.imageId;
  return `download:${orderId}:${what}:${exp}`;
}

export function signDownload(secret: string, orderId: string, target: DownloadTarget, exp: number): string {
  return createHmac('sha256', secret).update(payload(orderId, target, exp)).digest('hex');
}

export function downloadPath(secret: string, orderId: string, target: DownloadTarget, now: Date, ttlSeconds: number): string {
  const exp = Math.floor(now.getTime() / 1000) + ttlSeconds;
  const sig = signDownload(secret, orderId, target, exp);
  if (target.kind === 'image') return `/api/orders/${orderId}/results/${target.imageId}/download?exp=${exp}&sig=${sig}`;
  if (target.kind === 'teamZip') return `/api/teams/${orderId}/results.zip?kind=${target.variant}&exp=${exp}&sig=${sig}`;
  return `/api/orders/${orderId}/results.zip?${target.format ? `format=${target.format}&` : ''}exp=${exp}&sig=${sig}`;
}

export function checkDownload(
  secret: string,
  orderId: string,
  target: DownloadTarget,
  exp: string | undefined,
  sig: string | undefined,
  now: Date,
): 'valid' | 'linkExpired' | 'linkInvalid' {
  if (!exp || !sig || !/^\d{1,12}$/.test(exp) || !/^[0-9a-f]{64}$/.test(sig)) return 'linkInvalid';
  const expected = Buffer.from(signDownload(secret, orderId, target, Number(exp)), 'hex');
  if (!timingSafeEqual(expected, Buffer.from(sig, 'hex'))) return 'linkInvalid';
  return Number(exp) * 1000 < now.getTime() ? 'linkExpired' : 'valid';
}

/** Spec: one image is saved as headshot-{n}-{file name}. */
export function resultDownloadName(n: number, fileName: string): string {
  const clean = fileName.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '') || 'bild.jpg';
  return `headshot-${n}-${clean}`;
}
