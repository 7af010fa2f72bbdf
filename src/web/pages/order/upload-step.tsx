import { useCallback, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { UPLOAD_LIMITS } from '../../../domain/catalog.js';
import { PHOTO_CONSENT_VERSION } from '../../../domain/selection.js';
import { ApiError, api } from '../../lib/api.js';
import { useI18n } from '../../lib/i18n.js';
import { StepHeader, StepNav } from './order-layout.js';
import { useWizard } from './wizard-state.js';
import { trackEvent } from '../../lib/metrics.js';
import type { DraftAccess, DraftResponse } from './draft-uploads.js';
import { PhotoConsent, PhotoExamples, PhotoUploader } from './photo-uploader.js';
import { usePhotoUploads } from './use-photo-uploads.js';

export function UploadStep() {
  const { t, language } = useI18n();
  const { state, ready, update } = useWizard();
  const navigate = useNavigate();
  const draftPromise = useRef<Promise<DraftAccess> | null>(null);

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

  const blockedMessage = useCallback(() => (state.photoConsent ? null : t('order.upload.consentRequired')), [state.photoConsent, t]);
  const onRestoreFailed = useCallback(
    (error: unknown) => {
      if (error instanceof ApiError && error.status === 404) update({ orderId: null, draftToken: null });
    },
    [update],
  );
  const photos = usePhotoUploads({
    ready,
    draft: state.orderId && state.draftToken ? { orderId: state.orderId, token: state.draftToken } : null,
    ensureDraft,
    blockedMessage,
    onRestoreFailed,
  });
  const { uploads, busy, setAlert } = photos;
  // "Weiter" pressed while the shop still checks photos: said until the last verdict is in.
  const [askedWhileChecking, setAskedWhileChecking] = useState(false);
  const checking = photos.pending.some((item) => item.checkId && !item.error);

  return (
    <section className="step">
      <StepHeader title={t('order.upload.title')} subtitle={t('order.upload.subtitle', { min: UPLOAD_LIMITS.minPhotos, max: UPLOAD_LIMITS.maxPhotos })} />
      <PhotoExamples />
      <PhotoConsent checked={state.photoConsent} onChange={(photoConsent) => update({ photoConsent })} />
      <PhotoUploader photos={photos} />
      {askedWhileChecking && checking && (
        <p className="alert alert--info" role="status" data-testid="checking-notice">
          {t('errors.photosChecking')}
        </p>
      )}
      <StepNav
        back="/order/gender"
        nextDisabled={busy || uploads.length < UPLOAD_LIMITS.minPhotos}
        onNext={() => {
          if (busy) {
            // Photos on their way show their progress; photos the shop is still checking get a word here.
            if (checking) setAskedWhileChecking(true);
            return;
          }
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
