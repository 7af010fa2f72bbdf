// The gate's stored report (order_uploads.quality) as the customer and staff see it.
import type { PhotoWarning, UploadView } from '../../../domain/order-views.js';
import type { FastifyBaseLogger } from 'fastify';
import type { Inference } from '../../../studio/inference/client.js';
import { assessPhoto, isRefusing, type QualityReport, type WARNING_ISSUES } from '../../../studio/quality-gate.js';

/** The first check loads the models (about a second); later ones take well under 100 ms. */
const CHECK_TIMEOUT_MS = 30_000;

/**
 * The gate as the upload uses it. If the check itself fails (the models could not run), the photo is
 * accepted unchecked and the failure logged: a broken gate must not stop customers from ordering.
 */
export function createPhotoCheck(inference: Inference, log: FastifyBaseLogger) {
  return async (photo: Buffer): Promise<QualityReport | null> => {
    let timer: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([
        assessPhoto(photo, inference),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error('quality check timed out')), CHECK_TIMEOUT_MS);
        }),
      ]);
    } catch (error) {
      log.error({ err: error }, 'photo quality check failed; photo accepted unchecked');
      return null;
    } finally {
      clearTimeout(timer);
    }
  };
}

/**
 * PhotoWarning (domain, shared with the browser, which may not import the studio) lists the gate's warnings
 * again: this line fails to compile when the two lists drift apart.
 */
const _sameWarnings: [PhotoWarning] extends [(typeof WARNING_ISSUES)[number]] ? ([(typeof WARNING_ISSUES)[number]] extends [PhotoWarning] ? true : never) : never = true;

export function photoQualityView(stored: unknown): UploadView['quality'] {
  const report = stored as Partial<QualityReport> | null;
  if (!report || (report.verdict !== 'ok' && report.verdict !== 'warning')) return { verdict: 'unchecked', warnings: [] };
  const warnings = (report.issues ?? []).map((issue) => issue.code).filter((code): code is PhotoWarning => !isRefusing(code));
  return { verdict: warnings.length ? 'warning' : 'ok', warnings };
}
