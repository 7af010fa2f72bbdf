// Uploading the customer's own photos into a draft order: the file picker and drop zone, parallel uploads
// with progress, the gate's verdict per photo (asked for until a worker has checked a photo the busy shop
// took at once), refusals with their reason, the crop offered for a group photo, and the counter towards the
// minimum. Used by the wizard's upload step and by a team member's page; each
// brings its own draft (the wizard makes one on the first file, a member has one from joining).
import { Suspense, lazy, useCallback, useEffect, useRef, useState, type DragEvent } from 'react';
import { UPLOAD_LIMITS } from '../../../domain/catalog.js';
import type { PhotoCheckView, PhotoState, UploadAnswer, UploadView } from '../../../domain/order-views.js';
import { CheckboxField, type CheckboxError } from '../../components/form-fields.js';
import { ApiError, api, uploadFile } from '../../lib/api.js';
import { useI18n } from '../../lib/i18n.js';
import type { CropOffer } from './photo-crop.js';

// The crop dialog loads with the first photo refused for showing several people (it asks the dialog's module
// whether the photo can be cropped), not with the step: most customers never see it.
const cropModule = () => import('./photo-crop.js');
const PhotoCrop = lazy(() => cropModule().then((m) => ({ default: m.PhotoCrop })));

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

interface Pending {
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

/** The error of a failed call as a pending item shows it. */
function failure(error: unknown): Pick<Pending, 'error' | 'waitMinutes'> {
  if (!(error instanceof ApiError)) return { error: 'uploadFailed' };
  const seconds = Number(error.details.retryAfterSeconds);
  return { error: error.code, ...(Number.isFinite(seconds) ? { waitMinutes: Math.max(1, Math.ceil(seconds / 60)) } : {}) };
}

/** What the server takes (image-processing.ts): with HEIC/HEIF listed, iOS offers its photos as they are. */
const ACCEPT = 'image/jpeg,image/png,image/webp,image/heic,image/heif,.jpg,.jpeg,.png,.webp,.heic,.heif';
const PARALLEL_UPLOADS = 3;
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
async function awaitCheck(draft: DraftAccess, id: string): Promise<UploadView | null> {
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
function browserCheck(file: File): string | null {
  // Some browsers give a HEIC no type at all: its name says what it is.
  if (!file.type.startsWith('image/') && !isHeic(file)) return 'unsupportedType';
  if (file.size > UPLOAD_LIMITS.maxFileBytes) return 'fileTooLarge';
  return null;
}

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

/** The drop zone, the messages, the counter, the list of photos and the crop dialog. */
export function PhotoUploader({ photos }: { photos: PhotoUploads }) {
  const { t } = useI18n();
  const { uploads, pending, setPending, dismiss, summary, alert, setAlert, addFiles, remove, cropSources, blocked, blockedMessage } = photos;
  const [dragging, setDragging] = useState(false);
  const [cropping, setCropping] = useState<{ key: string; file: File } | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const list = useRef<HTMLUListElement>(null);

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    void addFiles([...event.dataTransfer.files]);
  };

  const errorText = (code: string, minutes?: number) => t(`errors.${code}`, { min: UPLOAD_LIMITS.minShortSidePx, max: UPLOAD_LIMITS.maxPhotos, minutes: minutes ?? 60 });

  return (
    <>
      <div
        className={`dropzone${dragging ? ' dropzone--active' : ''}${blocked ? ' dropzone--disabled' : ''}`}
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        data-testid="dropzone"
      >
        <p className="dropzone__text">{t('order.upload.dropzone')}</p>
        <button
          type="button"
          className="button button--primary"
          data-testid="file-button"
          onClick={() => {
            const message = blockedMessage();
            if (message) setAlert(message);
            else input.current?.click();
          }}
        >
          {t('order.upload.choose')}
        </button>
        <input
          ref={input}
          type="file"
          accept={ACCEPT}
          multiple
          hidden
          data-testid="file-input"
          onChange={(e) => {
            void addFiles([...(e.target.files ?? [])]);
            e.target.value = '';
          }}
        />
        <p className="dropzone__hint">{t('order.upload.formats', { min: UPLOAD_LIMITS.minShortSidePx })}</p>
      </div>
      {alert && (
        <p className="alert alert--error" role="alert">
          {alert}
        </p>
      )}
      {summary && (
        <p className="alert alert--error" role="alert" data-testid="upload-summary">
          {summary}
        </p>
      )}
      <p className="upload-counter" data-testid="upload-counter" aria-live="polite">
        {/* Towards the minimum first (spec: x/3), then towards the most an order takes. */}
        {uploads.length < UPLOAD_LIMITS.minPhotos
          ? t('order.upload.counterMin', { count: uploads.length, min: UPLOAD_LIMITS.minPhotos })
          : t('order.upload.counter', { count: uploads.length, max: UPLOAD_LIMITS.maxPhotos })}
      </p>
      <ul ref={list} className="thumbs" aria-label={t('order.upload.listLabel')} tabIndex={-1}>
        {uploads.map((upload) => (
          <li key={upload.id} className={`thumb thumb--${upload.quality.verdict}`} data-testid="upload-thumb" data-quality={upload.quality.verdict}>
            <img src={upload.thumbnailUrl} alt={upload.fileName} width={160} height={160} loading="lazy" />
            <button type="button" className="thumb__delete" onClick={() => void remove(upload)} aria-label={t('order.upload.delete', { name: upload.fileName })}>
              ×
            </button>
            <PhotoQuality quality={upload.quality} />
          </li>
        ))}
        {pending.map((item) => (
          <li key={item.key} className={`thumb thumb--pending${item.error ? ' thumb--error' : ''}`} data-testid={item.error ? 'upload-error' : 'upload-progress'}>
            <span className="thumb__name">{item.name}</span>
            {item.error ? (
              <>
                <span className="thumb__error">{errorText(item.error, item.waitMinutes)}</span>
                {item.crop === 'crop' && item.file && (
                  <>
                    <span className="thumb__hint">{t('order.upload.crop.offer')}</span>
                    <button
                      type="button"
                      className="button button--secondary button--small thumb__crop"
                      onClick={() => setCropping({ key: item.key, file: item.file! })}
                      aria-label={t('order.upload.crop.openLabel', { name: item.name })}
                      data-testid="crop-button"
                    >
                      {t('order.upload.crop.open')}
                    </button>
                  </>
                )}
                {item.crop === 'tooSmall' && <span className="thumb__hint">{t('order.upload.crop.tooSmall', { min: UPLOAD_LIMITS.minShortSidePx })}</span>}
                <button type="button" className="thumb__dismiss" onClick={() => dismiss(item)}>
                  {t('order.upload.dismiss')}
                </button>
              </>
            ) : item.checkId ? (
              <>
                {/* Without a value: the check's length is not known, the bar shows that work goes on. */}
                <progress aria-label={t('order.upload.checkingLabel', { name: item.name })} data-testid="upload-checking" />
                <span className="thumb__percent">{t('order.upload.checking')}</span>
              </>
            ) : (
              <>
                <progress max={1} value={item.progress} aria-label={t('order.upload.uploading', { name: item.name })} />
                <span className="thumb__percent">{Math.round(item.progress * 100)} %</span>
              </>
            )}
          </li>
        ))}
      </ul>
      {cropping && (
        // Loaded already: the crop button appears only once the dialog's module has answered cropOffer.
        <Suspense fallback={null}>
          <PhotoCrop
            file={cropping.file}
            onCancel={() => setCropping(null)}
            onConfirm={(cropped) => {
              setCropping(null);
              cropSources.current.set(cropped, cropping.file);
              // The crop takes the refused photo's place in the list, and its way: the same upload and checks.
              setPending((p) => p.filter((x) => x.key !== cropping.key));
              list.current?.focus({ preventScroll: true });
              void addFiles([cropped]);
            }}
          />
        </Suspense>
      )}
    </>
  );
}

/** The customer's own consent to the processing of their face photos (Art. 9 GDPR), before any upload. */
/** The consent to process face photos; a team member's page gives its own text (whose order, who sees what) and its error. */
export function PhotoConsent(props: { checked: boolean; onChange: (checked: boolean) => void; error?: CheckboxError | null; text?: string }) {
  const { t } = useI18n();
  return (
    <CheckboxField checked={props.checked} onChange={props.onChange} error={props.error} testId="photo-consent">
      {props.text ?? t('order.upload.consent')}
    </CheckboxField>
  );
}

/** The gate's verdict under a thumbnail: a check mark, or each warning with its advice. */
function PhotoQuality({ quality }: { quality: UploadView['quality'] }) {
  const { t } = useI18n();
  return (
    <div className={`thumb__quality thumb__quality--${quality.verdict}`} data-testid="upload-quality">
      <span className="thumb__verdict">
        <span aria-hidden="true">{quality.verdict === 'ok' ? '✓ ' : quality.verdict === 'warning' ? '! ' : ''}</span>
        {t(`order.upload.quality.${quality.verdict}`)}
      </span>
      {quality.warnings.length > 0 && (
        <ul className="thumb__warnings">
          {quality.warnings.map((warning) => (
            <li key={warning} data-testid={`warning-${warning}`}>
              {t(`order.upload.quality.warnings.${warning}`)}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** A good and a bad example, so the customer knows what the check looks for before choosing photos. */
export function PhotoExamples() {
  const { t } = useI18n();
  return (
    <section className="photo-examples" aria-labelledby="photo-examples-title">
      <h2 id="photo-examples-title" className="step__subheading">
        {t('order.upload.examples.title')}
      </h2>
      <div className="photo-examples__pair">
        <figure className="photo-examples__item photo-examples__item--good">
          <img src="/help/photo-good.webp" width={120} height={150} alt={t('order.upload.examples.goodAlt')} />
          <figcaption>
            <span aria-hidden="true">✓ </span>
            {t('order.upload.examples.good')}
          </figcaption>
        </figure>
        <figure className="photo-examples__item photo-examples__item--bad">
          <img src="/help/photo-bad.webp" width={120} height={150} alt={t('order.upload.examples.badAlt')} />
          <figcaption>
            <span aria-hidden="true">✗ </span>
            {t('order.upload.examples.bad')}
          </figcaption>
        </figure>
      </div>
      <p className="photo-examples__credit">{t('order.upload.examples.credit')}</p>
    </section>
  );
}
