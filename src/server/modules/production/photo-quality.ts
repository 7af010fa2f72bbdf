// The gate's stored report (order_uploads.quality) as the customer and staff see it.
import type { PhotoWarning, UploadView } from '../../../domain/order-views.js';
import { qualityReport, type StoredPhotoQuality } from '../../../domain/stored-json.js';
import type { FastifyBaseLogger } from 'fastify';
import type { Inference } from '../../../studio/inference/client.js';
import { assessPhoto, isRefusing, type QualityReport, type WARNING_ISSUES } from '../../../studio/quality-gate.js';

/** The first check loads the models (about a second); later ones take well under 100 ms. */
const CHECK_TIMEOUT_MS = 30_000;

/**
 * Checks under way at once in one process. The models answer one request at a time in their thread: a burst
 * of uploads (50 customers sending three photos each, bench/load) queued there for longer than the timeout,
 * and most of their photos were accepted unchecked, while every decode for the gate held its pixels. A check
 * waits for its turn first, so the timeout measures the check and not the queue (and two decodes at a time
 * keep both cores busy, as the upload's own decode slots do).
 */
const PARALLEL_CHECKS = 2;

/**
 * The gate as the upload uses it. If the check itself fails (the models could not run), the photo is
 * accepted unchecked and the failure logged: a broken gate must not stop customers from ordering.
 */
export function createPhotoCheck(inference: Inference, log: FastifyBaseLogger, options: { timeoutMs?: number; parallel?: number } = {}) {
  const timeoutMs = options.timeoutMs ?? CHECK_TIMEOUT_MS;
  const parallel = options.parallel ?? PARALLEL_CHECKS;
  let running = 0;
  const waiting: Array<() => void> = [];
  const check = async (photo: Buffer): Promise<QualityReport | null> => {
    let timer: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([
        assessPhoto(photo, inference),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error('quality check timed out')), timeoutMs);
        }),
      ]);
    } catch (error) {
      log.error({ err: error }, 'photo quality check failed; photo accepted unchecked');
      return null;
    } finally {
      clearTimeout(timer);
    }
  };
  return async (photo: Buffer): Promise<QualityReport | null> => {
    if (running < parallel) running++;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await check(photo);
    } finally {
      // Hand the turn straight to the next waiter, or give it back.
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
}

/**
 * PhotoWarning (domain, shared with the browser, which may not import the studio) lists the gate's warnings
 * again: this line fails to compile when the two lists drift apart.
 */
const _sameWarnings: [PhotoWarning] extends [(typeof WARNING_ISSUES)[number]] ? ([(typeof WARNING_ISSUES)[number]] extends [PhotoWarning] ? true : never) : never = true;

export function photoQualityView(stored: StoredPhotoQuality | null): UploadView['quality'] {
  const report = qualityReport(stored);
  if (!report || (report.verdict !== 'ok' && report.verdict !== 'warning')) return { verdict: 'unchecked', warnings: [] };
  const warnings = (report.issues ?? []).map((issue) => issue.code).filter((code): code is PhotoWarning => !isRefusing(code));
  return { verdict: warnings.length ? 'warning' : 'ok', warnings };
}
