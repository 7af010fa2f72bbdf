// The photos of a draft order and those on their way: parallel uploads with progress, the gate's verdict per
// photo (asked for until a worker has checked a photo the busy shop took at once), refusals with their reason,
// and the crop offered for a group photo. The page shows them with <PhotoUploader> (photo-uploader.tsx).
import { useCallback, useEffect, useRef, useState } from 'react';
import { UPLOAD_LIMITS } from '../../../domain/catalog.js';
import type { UploadAnswer, UploadView } from '../../../domain/order-views.js';
import { ApiError, api, uploadFile } from '../../lib/api.js';
import { useI18n } from '../../lib/i18n.js';
import { awaitCheck, browserCheck, failure, type DraftAccess, type DraftResponse } from './draft-uploads.js';
import type { CropOffer } from './photo-crop.js';

// The crop dialog loads with the first photo refused for showing several people (it asks the dialog's module
// whether the photo can be cropped), not with the step: most customers never see it.
export const cropModule = () => import('./photo-crop.js');

/** A photo on its way, waiting for its check, or refused: one item of the list under the drop zone. */
export interface Pending {
  key: string;
  name: string;
  progress: number;
  error: string | null;
  /** For a limit reached: how long to wait, from the server's answer. */
  waitMinutes?: number;
  /** Kept so that a photo refused for showing several people can be cropped and sent again (none after a reload). */
  file?: File;
  /** Sent, and waiting for its check on the server: the photo's id there, and its draft. */
  checkId?: string;
  checkDraft?: DraftAccess;
  /** Set for that refusal once the browser has opened the photo: the crop, or why there is none. */
  crop?: Exclude<CropOffer, 'none'>;
}

/** Refusals a crop can mend: a group photo becomes a photo of the customer alone. */
const CROPPABLE_ERRORS = new Set(['multipleFaces']);

const PARALLEL_UPLOADS = 3;

export interface PhotoUploadsOptions {
  /** False during server rendering and the first browser render, before the page knows its draft. */
  ready: boolean;
  /** The draft known when the page opened: its photos are shown again once (after a reload). */
  draft: DraftAccess | null;
  /** The draft to upload into, made on the first file where there is none yet. */
  ensureDraft: () => Promise<DraftAccess>;
  /** Why no photo may be added now (the wizard: consent not given yet), or null. */
  blockedMessage: () => string | null;
  /** The restored draft, for pages that show more of it. */
  onRestored?: (draft: DraftResponse) => void;
  onRestoreFailed?: (error: unknown) => void;
}

/** The photos of a draft and what is on its way; the page shows them with <PhotoUploader>. */
export function usePhotoUploads(options: PhotoUploadsOptions) {
  const { t } = useI18n();
  const { ready, draft, ensureDraft, blockedMessage, onRestored, onRestoreFailed } = options;
  const [uploads, setUploads] = useState<UploadView[]>([]);
  const [pending, setPending] = useState<Pending[]>([]);
  const [summary, setSummary] = useState<string | null>(null);
  const [alert, setAlert] = useState<string | null>(null);
  // A crop refused again is cropped again from the whole photo, not from the crop.
  const cropSources = useRef(new WeakMap<File, File>());
  const setItem = useCallback((key: string, change: Partial<Pending>) => setPending((p) => p.map((x) => (x.key === key ? { ...x, ...change } : x))), []);

  /**
   * One photo's outcome: accepted (into the list), removed meanwhile (gone), or refused (its reason, and the
   * crop for a group photo). True when the photo was accepted.
   */
  const settle = useCallback(
    (item: Pending, outcome: Promise<UploadView | null>): Promise<boolean> =>
      outcome.then(
        (upload) => {
          if (upload) setUploads((u) => [...u.filter((x) => x.id !== upload.id), upload]);
          setPending((p) => p.filter((x) => x.key !== item.key));
          return true;
        },
        (error: unknown) => {
          const result = failure(error);
          setItem(item.key, result);
          const file = item.file;
          if (file && result.error && CROPPABLE_ERRORS.has(result.error)) {
            const source = cropSources.current.get(file) ?? file;
            // Only a photo this browser can open is offered for cropping (most cannot open HEIC).
            void cropModule()
              .then((m) => m.cropOffer(source))
              .then(
                (offer) => {
                  if (offer !== 'none') setItem(item.key, { crop: offer, file: source });
                },
                () => {
                  // Not loaded (offline): the photo is refused without the offer, as where it cannot be opened.
                },
              );
          }
          return false;
        },
      ),
    [setItem],
  );

  // Restore the photos of this browser's draft after a reload: once, for the draft known when the page
  // opened. A draft created here meanwhile is filled by this page's own uploads; merging keeps any photo
  // that finished while the list was on its way.
  const restored = useRef(false);
  useEffect(() => {
    if (!ready || restored.current) return;
    restored.current = true;
    if (!draft) return;
    api<DraftResponse>(`/api/orders/${draft.orderId}/draft`, { headers: { 'x-draft-token': draft.token } })
      .then((loaded) => {
        setUploads((current) => [...loaded.uploads, ...current.filter((u) => !loaded.uploads.some((d) => d.id === u.id))]);
        // Photos still being checked: shown as such, and asked for until they have their verdict.
        const waiting = (loaded.checking ?? []).map((check): Pending => ({ key: `check-${check.id}`, name: check.fileName, progress: 1, error: null, checkId: check.id, checkDraft: draft }));
        setPending((current) => [...current, ...waiting.filter((item) => !current.some((x) => x.checkId === item.checkId))]);
        for (const item of waiting) void settle(item, awaitCheck(draft, item.checkId!));
        onRestored?.(loaded);
      })
      .catch((error: unknown) => onRestoreFailed?.(error));
  }, [ready, draft, onRestored, onRestoreFailed, settle]);

  const addFiles = useCallback(
    async (files: File[]) => {
      setSummary(null);
      setAlert(null);
      if (!files.length) return;
      const blocked = blockedMessage();
      if (blocked) {
        setAlert(blocked);
        return;
      }
      const room = UPLOAD_LIMITS.maxPhotos - uploads.length - pending.filter((p) => !p.error).length;
      const items: Pending[] = files.map((file, i) => ({
        key: `${Date.now()}-${i}-${file.name}`,
        name: file.name,
        progress: 0,
        error: i >= room ? 'tooManyPhotos' : browserCheck(file),
        file,
      }));
      setPending((p) => [...p, ...items]);

      let target: DraftAccess;
      const toSend = items.filter((item) => !item.error);
      try {
        if (toSend.length) target = await ensureDraft();
      } catch (error) {
        for (const item of toSend) setItem(item.key, failure(error));
        setSummary(t('order.upload.partialFailure', { n: items.length, total: items.length }));
        return;
      }
      const queue = [...toSend];
      const outcomes: Promise<boolean>[] = [];
      const worker = async () => {
        for (let item = queue.shift(); item; item = queue.shift()) {
          const current = item;
          let outcome: Promise<UploadView | null>;
          try {
            const answer = await uploadFile<UploadAnswer>(
              `/api/orders/${target.orderId}/uploads`,
              current.file!,
              { 'x-draft-token': target.token },
              (fraction) => setItem(current.key, { progress: fraction }),
              { asBody: true },
            );
            if ('state' in answer) {
              // A busy shop took the photo and checks it soon: the next one goes on its way meanwhile.
              setItem(current.key, { progress: 1, checkId: answer.id, checkDraft: target });
              outcome = awaitCheck(target, answer.id);
            } else outcome = Promise.resolve(answer);
          } catch (error) {
            outcome = Promise.reject(error);
          }
          outcomes.push(settle(current, outcome));
        }
      };
      await Promise.all(Array.from({ length: PARALLEL_UPLOADS }, worker));
      const failed = items.length - toSend.length + (await Promise.all(outcomes)).filter((accepted) => !accepted).length;
      if (failed > 0) setSummary(t('order.upload.partialFailure', { n: failed, total: items.length }));
    },
    [blockedMessage, uploads.length, pending, ensureDraft, t, setItem, settle],
  );

  const remove = async (upload: UploadView) => {
    try {
      await api(`/api/orders/${draft?.orderId}/uploads/${upload.id}`, { method: 'DELETE', headers: draft ? { 'x-draft-token': draft.token } : {} });
      setUploads((u) => u.filter((x) => x.id !== upload.id));
    } catch (error) {
      setAlert(t(`errors.${error instanceof ApiError ? error.code : 'uploadFailed'}`));
    }
  };

  /** Hides a refused photo; one the server checked keeps its reason there until it is dismissed. */
  const dismiss = (item: Pending) => {
    setPending((p) => p.filter((x) => x.key !== item.key));
    const at = item.checkDraft;
    if (item.checkId && at) void api(`/api/orders/${at.orderId}/uploads/${item.checkId}`, { method: 'DELETE', headers: { 'x-draft-token': at.token } }).catch(() => {});
  };

  return {
    uploads,
    pending,
    setPending,
    dismiss,
    summary,
    alert,
    setAlert,
    addFiles,
    remove,
    cropSources,
    blocked: blockedMessage() !== null,
    blockedMessage,
    /** Photos still on their way: the next step waits for them. */
    busy: pending.some((p) => !p.error),
  };
}

export type PhotoUploads = ReturnType<typeof usePhotoUploads>;
