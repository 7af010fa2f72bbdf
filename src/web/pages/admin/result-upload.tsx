// Staff upload the order's pictures (PNG or JPG up to 10 MB): one file after another with real progress.
import { useRef, useState, type ChangeEvent } from 'react';
import type { AdminOrderDetail } from '../../../domain/staff-api.js';
import { toApiError, useStaff } from './staff-session.js';

const MAX_RESULT_BYTES = 10 * 1024 * 1024;
const RESULT_TYPES = ['image/png', 'image/jpeg'];

interface FileProgress {
  name: string;
  fraction: number;
}

interface UploadFailure {
  name: string;
  reason: string;
}

function uploadReason(code: string, status: number): string {
  if (code === 'fileTooLarge' || status === 413) return 'größer als 10 MB';
  if (code === 'invalidFileType' || code === 'invalidImage' || status === 415) return 'kein gültiges PNG- oder JPG-Bild';
  if (code === 'network') return 'keine Verbindung';
  if (code === 'csrfInvalid' || status === 403) return 'nicht erlaubt';
  return `Fehler (${code})`;
}

/** Upload area: one file after another with real progress; the detail is reloaded when all are done. */
export function ResultUpload({ detail, onUploaded }: { detail: AdminOrderDetail; onUploaded: () => void }) {
  const { upload } = useStaff();
  const input = useRef<HTMLInputElement>(null);
  const [queue, setQueue] = useState<FileProgress[] | null>(null);
  const [current, setCurrent] = useState(0);
  const [failures, setFailures] = useState<UploadFailure[]>([]);
  const [done, setDone] = useState<number | null>(null);
  const busy = queue !== null;

  const uploaded = detail.results.filter((result) => result.status === 'draft' || result.status === 'active').length;
  const required = detail.requiredResults;
  const missing = Math.max(0, required - uploaded);

  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const files = Array.from(event.target.files ?? []);
    if (!files.length) return;
    const rejected: UploadFailure[] = [];
    const accepted = files.filter((file) => {
      if (file.type && !RESULT_TYPES.includes(file.type)) rejected.push({ name: file.name, reason: 'nur PNG oder JPG' });
      else if (file.size > MAX_RESULT_BYTES) rejected.push({ name: file.name, reason: 'größer als 10 MB' });
      else return true;
      return false;
    });
    setFailures([...rejected]);
    setDone(null);
    setQueue(accepted.map((file) => ({ name: file.name, fraction: 0 })));
    let ok = 0;
    for (const [index, file] of accepted.entries()) {
      setCurrent(index);
      try {
        await upload(`/api/admin/orders/${detail.order.id}/results`, file, (fraction) =>
          setQueue((list) => list?.map((item, i) => (i === index ? { ...item, fraction } : item)) ?? null),
        );
        ok += 1;
      } catch (caught) {
        const failure = toApiError(caught);
        rejected.push({ name: file.name, reason: uploadReason(failure.code, failure.status) });
        setFailures([...rejected]);
        // Signed out: the login form replaces this page, nothing more to send.
        if (failure.status === 401) return;
      }
    }
    setQueue(null);
    setDone(ok);
    if (input.current) input.current.value = '';
    if (ok > 0) onUploaded();
  };

  const overall = queue?.length ? queue.reduce((sum, item) => sum + item.fraction, 0) / queue.length : 0;

  return (
    <section className="card admin-card" aria-labelledby="upload-title">
      <h2 id="upload-title">Generierte Bilder hochladen</h2>
      <p className="admin-counter" data-testid="result-counter">
        <strong>
          {uploaded} von {required} Bildern hochgeladen
        </strong>
        {uploaded < required && <span className="admin-warn"> ({missing} noch benötigt)</span>}
        <span className="admin-muted"> · davon {detail.activeResults} aktiv</span>
      </p>
      <div className={`admin-drop${busy ? ' admin-drop--busy' : ''}`}>
        <input
          ref={input}
          id="result-input"
          className="admin-drop__input"
          type="file"
          multiple
          accept="image/png,image/jpeg"
          onChange={(event) => void choose(event)}
          disabled={busy}
          aria-describedby="result-input-hint"
          data-testid="result-input"
        />
        <label htmlFor="result-input" className={`button button--primary admin-drop__button${busy ? ' admin-drop__button--busy' : ''}`} data-testid="result-upload-button">
          {busy ? 'Wird hochgeladen...' : 'Bilder auswählen'}
        </label>
        <p id="result-input-hint" className="admin-muted">
          PNG, JPG bis zu 10MB
        </p>
      </div>
      {queue && queue.length > 0 && (
        <div className="admin-progress" role="status" aria-live="polite">
          <p>
            Wird hochgeladen... Datei {Math.min(current + 1, queue.length)} von {queue.length}: {queue[current]?.name}
          </p>
          <progress max={1} value={overall} aria-label="Fortschritt aller Dateien" />
        </div>
      )}
      {done !== null && done > 0 && (
        <p className="admin-ok" role="status">
          {done === 1 ? '1 Bild hochgeladen.' : `${done} Bilder hochgeladen.`}
        </p>
      )}
      {failures.length > 0 && (
        <div className="alert alert--error" role="alert" data-testid="upload-error">
          <p className="admin-alert-title">Fehler beim Hochladen der Bilder</p>
          <ul className="admin-failures">
            {failures.map((failure, index) => (
              <li key={`${failure.name}-${index}`}>
                {failure.name}: {failure.reason}
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
