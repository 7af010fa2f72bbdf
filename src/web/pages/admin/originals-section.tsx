// The customer's originals in the order's detail page: each photo with the quality gate's verdict, a download,
// and the lightbox.
import { useState } from 'react';
import type { PhotoWarning } from '../../../domain/order-views.js';
import type { AdminUpload } from '../../../domain/staff-api.js';
import { SafeImage } from './admin-ui.js';
import { fileFacts } from './admin-format.js';
import { Lightbox } from './lightbox.js';
import type { LightboxItem } from './lightbox-types.js';

function useLightbox(items: LightboxItem[]) {
  const [index, setIndex] = useState<number | null>(null);
  const element =
    index !== null && items[index] ? <Lightbox items={items} index={index} onIndex={setIndex} onClose={() => setIndex(null)} /> : null;
  return { open: setIndex, element };
}

const WARNING_LABELS: Record<PhotoWarning, string> = {
  faceTooSmall: 'Gesicht klein',
  headTurned: 'Kopf gedreht',
  headTilted: 'Kopf schief',
  blurred: 'unscharf',
  tooDark: 'zu dunkel',
  tooBright: 'zu hell',
  lowResolution: 'wenige Pixel',
  otherPeople: 'jemand anderes am Rand',
};

export function OriginalsSection({ uploads }: { uploads: AdminUpload[] }) {
  const items: LightboxItem[] = uploads.map((upload) => ({
    key: upload.id,
    src: upload.url,
    alt: `Originalbild ${upload.fileName}`,
    caption: upload.fileName,
    downloadUrl: upload.downloadUrl,
  }));
  const lightbox = useLightbox(items);
  return (
    <section className="card admin-card" aria-labelledby="originals-title">
      <h2 id="originals-title">Originalbilder ({uploads.length})</h2>
      {uploads.length === 0 ? (
        <p className="admin-empty">Keine Originalbilder gefunden</p>
      ) : (
        <ul className="admin-images">
          {uploads.map((upload, index) => (
            <li key={upload.id} className="admin-image" data-testid="original-item">
              <button type="button" className="admin-image__open" onClick={() => lightbox.open(index)} aria-label={`${upload.fileName} vergrößern`}>
                <SafeImage src={upload.thumbnailUrl} alt="" className="admin-image__img" width={200} height={200} />
              </button>
              <div className="admin-image__body">
                <p className="admin-image__name" title={upload.fileName}>
                  {upload.fileName}
                </p>
                <p className="admin-image__facts">{fileFacts(upload)}</p>
                <p className="admin-image__variant" data-testid="original-quality">
                  Prüfung: {upload.quality.verdict === 'ok' ? 'gut geeignet' : upload.quality.verdict === 'warning' ? `Hinweise (${upload.quality.warnings.map((w) => WARNING_LABELS[w] ?? w).join(', ')})` : 'nicht geprüft'}
                </p>
                <a className="button button--secondary button--small" href={upload.downloadUrl} download data-testid="original-download">
                  Herunterladen
                </a>
              </div>
            </li>
          ))}
        </ul>
      )}
      {lightbox.element}
    </section>
  );
}
