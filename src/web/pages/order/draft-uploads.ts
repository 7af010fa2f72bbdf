// The photos of a draft order on the server, as the upload pages (use-photo-uploads.ts) see them: the draft
// they upload into, the check of a file before it is sent, and the wait for a photo's verdict.
import { UPLOAD_LIMITS } from '../../../domain/catalog.js';
import type { PhotoCheckView, PhotoState, UploadView } from '../../../domain/order-views.js';
import { ApiError, api } from '../../lib/api.js';

/** A draft this browser may upload into: its id and its draft token. */
export interface DraftAccess {
  orderId: string;
  token: string;
}

/** The parts of the draft (GET /api/orders/:id/draft) the upload pages read. */
export interface DraftResponse {
  orderId: string;
  orderNumber: string;
  status: string;
  paymentStatus: string;
  draftToken?: string;
  selection: { gender: string | null; style: string | null; package: string | null; location: string | null; outfit: string | null };
  uploads: UploadView[];
  /** Photos the shop took while busy, still waiting for their check. */
  checking: PhotoCheckView[];
  editable: boolean;
}

/** Why a photo did not arrive, as its item in the list shows it. */
export interface UploadFailure {
  error: string;
  /** For a limit reached: how long to wait, from the server's answer. */
  waitMinutes?: number;
}

/** The error of a failed call as a pending item shows it. */
export function failure(error: unknown): UploadFailure {
  if (!(error instanceof ApiError)) return { error: 'uploadFailed' };
  const seconds = Number(error.details.retryAfterSeconds);
  return { error: error.code, ...(Number.isFinite(seconds) ? { waitMinutes: Math.max(1, Math.ceil(seconds / 60)) } : {}) };
}

/**
 * When the wizard asks for the verdict on a photo the shop checks in a worker: after a second (a quiet shop has
 * checked it by then), then less and less often, at most every 5 s. Fifty customers asking every 1.5 s for
 * the minute a rush takes sent 11 000 requests to the web processes (bench/load).
 */
const checkPollDelayMs = (asked: number) => Math.min(5000, 1000 * 1.5 ** asked);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Asks for a waiting photo's verdict until it has one: the accepted upload, or the refusal as an ApiError
 * (as if the upload itself had been refused). A lost connection is asked again; a removed photo is null.
 */
export async function awaitCheck(draft: DraftAccess, id: string): Promise<UploadView | null> {
  for (let asked = 0, failures = 0; ; asked++) {
    await sleep(checkPollDelayMs(asked));
    let answer: PhotoState;
    try {
      answer = await api<PhotoState>(`/api/orders/${draft.orderId}/uploads/${id}`, { headers: { 'x-draft-token': draft.token } });
      failures = 0;
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return null;
      if (error instanceof ApiError || ++failures >= 5) throw error;
      continue;
    }
    if (answer.state === 'accepted') return answer.upload;
    if (answer.state === 'refused') throw new ApiError(422, answer.code, answer.details ?? {});
  }
}

function isHeic(file: File) {
  return /\.(heic|heif)$/i.test(file.name) || /image\/hei[cf]/.test(file.type);
}

/** Checks in the browser only spare a round trip; the server decides. */
export function browserCheck(file: File): string | null {
  // Some browsers give a HEIC no type at all: its name says what it is.
  if (!file.type.startsWith('image/') && !isHeic(file)) return 'unsupportedType';
  if (file.size > UPLOAD_LIMITS.maxFileBytes) return 'fileTooLarge';
  return null;
}
