import { useCallback, useEffect, useRef, useState, type DragEvent } from 'react';
import { useNavigate } from 'react-router';
import { UPLOAD_LIMITS } from '../../../domain/catalog.js';
import { PHOTO_CONSENT_VERSION } from '../../../domain/order-selection.js';
import type { UploadView } from '../../../domain/order-views.js';
import { ApiError, api, uploadFile } from '../../lib/api.js';
import { useI18n } from '../../i18n/i18n.js';
import { StepHeader, StepNav } from './order-layout.js';
import { useWizard } from './wizard-state.js';
import { trackEvent } from '../../lib/metrics.js';
import { PhotoCrop, cropOffer, type CropOffer } from './photo-crop.js';


interface Pending {
  key: string;
  name: string;
  progress: number;
  error: string | null;
  /** For a limit reached: how long to wait, from the server's answer. */
  waitMinutes?: number;
  /** Kept so that a photo refused for showing several people can be cropped and sent again. */
  file: File;
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

interface DraftResponse {
  orderId: string;
  draftToken?: string;
  uploads: UploadView[];
  editable: boolean;
}

/** What the server takes (image-processing.ts): with HEIC/HEIF listed, iOS offers its photos as they are. */
const ACCEPT = 'image/jpeg,image/png,image/webp,image/heic,image/heif,.jpg,.jpeg,.png,.webp,.heic,.heif';
const PARALLEL_UPLOADS = 3;

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

export function UploadStep() {
  const { t, language } = useI18n();
  const { state, ready, update, draftHeaders } = useWizard();
  const navigate = useNavigate();
  const [uploads, setUploads] = useState<UploadView[]>([]);
  const [pending, setPending] = useState<Pending[]>([]);
  const [summary, setSummary] = useState<string | null>(null);
  const [alert, setAlert] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const [cropping, setCropping] = useState<{ key: string; file: File } | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const list = useRef<HTMLUListElement>(null);
  // A crop refused again is cropped again from the whole photo, not from the crop.
  const cropSources = useRef(new WeakMap<File, File>());
  const draftPromise = useRef<Promise<{ orderId: string; token: string }> | null>(null);

  // Restore the photos of this browser's draft after a reload: once, for the draft known when the page
  // opened. A draft created here meanwhile is filled by this page's own uploads; merging keeps any photo
  // that finished while the list was on its way.
  const restored = useRef(false);
  useEffect(() => {
    if (!ready || restored.current) return;
    restored.current = true;
    if (!state.orderId || !state.draftToken) return;
    api<DraftResponse>(`/api/orders/${state.orderId}/draft`, { headers: { 'x-draft-token': state.draftToken } })
      .then((draft) =>
        setUploads((current) => [...draft.uploads, ...current.filter((u) => !draft.uploads.some((d) => d.id === u.id))]),
      )
      .catch((error: unknown) => {
        if (error instanceof ApiError && error.status === 404) update({ orderId: null, draftToken: null });
      });
  }, [ready, state.orderId, state.draftToken, update]);

  const ensureDraft = useCallback(async () => {
    if (state.orderId && state.draftToken) return { orderId: state.orderId, token: state.draftToken };
    // One draft for all files of a drop, even when they upload in parallel.
    draftPromise.current ??= api<DraftResponse>('/api/orders', {
      method: 'POST',
      body: { language, selection: state.selection, photoConsent: true, photoConsentVersion: PHOTO_CONSENT_VERSION },
    }).then((draft) => {
      update({ orderId: draft.orderId, draftToken: draft.draftToken ?? null });
      return { orderId: draft.orderId, token: draft.draftToken! };
    });
    try {
      return await draftPromise.current;
    } catch (error) {
      draftPromise.current = null;
      throw error;
    }
  }, [state.orderId, state.draftToken, state.selection, language, update]);

  const addFiles = useCallback(
    async (files: File[]) => {
      setSummary(null);
      setAlert(null);
      if (!files.length) return;
      if (!state.photoConsent) {
        setAlert(t('order.upload.consentRequired'));
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
      const setItem = (key: string, change: Partial<Pending>) => setPending((p) => p.map((x) => (x.key === key ? { ...x, ...change } : x)));

      let draft: { orderId: string; token: string };
      const toSend = items.filter((item) => !item.error);
      try {
        if (toSend.length) draft = await ensureDraft();
      } catch (error) {
        for (const item of toSend) setItem(item.key, failure(error));
        setSummary(t('order.upload.partialFailure', { n: items.length, total: items.length }));
        return;
      }
      let failed = items.length - toSend.length;
      const queue = [...toSend];
      const worker = async () => {
        for (let item = queue.shift(); item; item = queue.shift()) {
          try {
            const upload = await uploadFile<UploadView>(`/api/orders/${draft.orderId}/uploads`, item.file, { 'x-draft-token': draft.token }, (fraction) =>
              setItem(item!.key, { progress: fraction }),
            );
            setUploads((u) => [...u, upload]);
            setPending((p) => p.filter((x) => x.key !== item!.key));
          } catch (error) {
            failed++;
            const result = failure(error);
            setItem(item.key, result);
            if (result.error && CROPPABLE_ERRORS.has(result.error)) {
              const source = cropSources.current.get(item.file) ?? item.file;
              // Only a photo this browser can open is offered for cropping (most cannot open HEIC).
              void cropOffer(source).then((offer) => {
                if (offer !== 'none') setItem(item!.key, { crop: offer, file: source });
              });
            }
          }
        }
      };
      await Promise.all(Array.from({ length: PARALLEL_UPLOADS }, worker));
      if (failed > 0) setSummary(t('order.upload.partialFailure', { n: failed, total: items.length }));
    },
    [state.photoConsent, uploads.length, pending, ensureDraft, t],
  );

  const remove = async (upload: UploadView) => {
    try {
      await api(`/api/orders/${state.orderId}/uploads/${upload.id}`, { method: 'DELETE', headers: draftHeaders() });
      setUploads((u) => u.filter((x) => x.id !== upload.id));
    } catch (error) {
      setAlert(t(`errors.${error instanceof ApiError ? error.code : 'uploadFailed'}`));
    }
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    void addFiles([...event.dataTransfer.files]);
  };

  const errorText = (code: string, minutes?: number) => t(`errors.${code}`, { min: UPLOAD_LIMITS.minShortSidePx, max: UPLOAD_LIMITS.maxPhotos, minutes: minutes ?? 60 });

  const busy = pending.some((p) => !p.error);
  return (
    <section className="step">
      <StepHeader title={t('order.upload.title')} subtitle={t('order.upload.subtitle', { min: UPLOAD_LIMITS.minPhotos, max: UPLOAD_LIMITS.maxPhotos })} />
      <PhotoExamples />
      <label className="consent">
        <input type="checkbox" checked={state.photoConsent} onChange={(e) => update({ photoConsent: e.target.checked })} data-testid="photo-consent" />
        <span>{t('order.upload.consent')}</span>
      </label>
      <div
        className={`dropzone${dragging ? ' dropzone--active' : ''}${state.photoConsent ? '' : ' dropzone--disabled'}`}
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        data-testid="dropzone"
      >
        <p className="dropzone__text">{t('order.upload.dropzone')}</p>
        <button type="button" className="button button--primary" data-testid="file-button" onClick={() => (state.photoConsent ? input.current?.click() : setAlert(t('order.upload.consentRequired')))}>
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
                {item.crop === 'crop' && (
                  <>
                    <span className="thumb__hint">{t('order.upload.crop.offer')}</span>
                    <button
                      type="button"
                      className="button button--secondary button--small thumb__crop"
                      onClick={() => setCropping({ key: item.key, file: item.file })}
                      aria-label={t('order.upload.crop.openLabel', { name: item.name })}
                      data-testid="crop-button"
                    >
                      {t('order.upload.crop.open')}
                    </button>
                  </>
                )}
                {item.crop === 'tooSmall' && <span className="thumb__hint">{t('order.upload.crop.tooSmall', { min: UPLOAD_LIMITS.minShortSidePx })}</span>}
                <button type="button" className="thumb__dismiss" onClick={() => setPending((p) => p.filter((x) => x.key !== item.key))}>
                  {t('order.upload.dismiss')}
                </button>
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
      )}
      <StepNav
        back="/order/gender"
        nextDisabled={busy || uploads.length < UPLOAD_LIMITS.minPhotos}
        onNext={() => {
          if (busy) return;
          if (uploads.length < UPLOAD_LIMITS.minPhotos) setAlert(t('order.upload.minPhotos', { min: UPLOAD_LIMITS.minPhotos }));
          else {
            trackEvent('upload_count', uploads.length);
            navigate('/order/style');
          }
        }}
      />
    </section>
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
function PhotoExamples() {
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
