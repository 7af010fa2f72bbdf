// The items of the upload list (photo-uploader.tsx): an accepted photo with the gate's verdict, and a photo
// still on its way, waiting for its check, or refused with its reason and, for a group photo, the crop.
import { UPLOAD_LIMITS } from '../../../domain/catalog.js';
import type { UploadView } from '../../../domain/order-views.js';
import { useI18n } from '../../lib/i18n.js';
import type { Pending } from './use-photo-uploads.js';

export function UploadThumb({ upload, onRemove }: { upload: UploadView; onRemove: () => void }) {
  const { t } = useI18n();
  return (
    <li className={`thumb thumb--${upload.quality.verdict}`} data-testid="upload-thumb" data-quality={upload.quality.verdict}>
      <img src={upload.thumbnailUrl} alt={upload.fileName} width={160} height={160} loading="lazy" />
      <button type="button" className="thumb__delete" onClick={onRemove} aria-label={t('order.upload.delete', { name: upload.fileName })}>
        ×
      </button>
      <PhotoQuality quality={upload.quality} />
    </li>
  );
}

export function PendingThumb({ item, onCrop, onDismiss }: { item: Pending; onCrop: (file: File) => void; onDismiss: () => void }) {
  const { t } = useI18n();
  const errorText = (code: string, minutes?: number) => t(`errors.${code}`, { min: UPLOAD_LIMITS.minShortSidePx, max: UPLOAD_LIMITS.maxPhotos, minutes: minutes ?? 60 });
  return (
    <li className={`thumb thumb--pending${item.error ? ' thumb--error' : ''}`} data-testid={item.error ? 'upload-error' : 'upload-progress'}>
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
                onClick={() => onCrop(item.file!)}
                aria-label={t('order.upload.crop.openLabel', { name: item.name })}
                data-testid="crop-button"
              >
                {t('order.upload.crop.open')}
              </button>
            </>
          )}
          {item.crop === 'tooSmall' && <span className="thumb__hint">{t('order.upload.crop.tooSmall', { min: UPLOAD_LIMITS.minShortSidePx })}</span>}
          <button type="button" className="thumb__dismiss" onClick={onDismiss}>
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
