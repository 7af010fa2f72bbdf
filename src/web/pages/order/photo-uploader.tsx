// Uploading the customer's own photos into a draft order: the file picker and drop zone, the messages, the
// counter towards the minimum, the list of photos (photo-thumbs.tsx) and the crop dialog offered for a group
// photo; the photos and their uploads are usePhotoUploads' (use-photo-uploads.ts). Used by the wizard's upload
// step and by a team member's page; each brings its own draft (the wizard makes one on the first file, a
// member has one from joining).
import { Suspense, lazy, useRef, useState, type DragEvent } from 'react';
import { UPLOAD_LIMITS } from '../../../domain/catalog.js';
import { CheckboxField, type CheckboxError } from '../../components/form-fields.js';
import { useI18n } from '../../lib/i18n.js';
import { PendingThumb, UploadThumb } from './photo-thumbs.js';
import { cropModule, type PhotoUploads } from './use-photo-uploads.js';

const PhotoCrop = lazy(() => cropModule().then((m) => ({ default: m.PhotoCrop })));

/** What the server takes (image-processing.ts): with HEIC/HEIF listed, iOS offers its photos as they are. */
const ACCEPT = 'image/jpeg,image/png,image/webp,image/heic,image/heif,.jpg,.jpeg,.png,.webp,.heic,.heif';

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
          <UploadThumb key={upload.id} upload={upload} onRemove={() => void remove(upload)} />
        ))}
        {pending.map((item) => (
          <PendingThumb key={item.key} item={item} onCrop={(file) => setCropping({ key: item.key, file })} onDismiss={() => dismiss(item)} />
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
