// Who makes an order's pictures, and the studio's jobs with their progress: regenerate all drafts, see a
// job work, retry a dead one. Results appear in the images section when a job is done.
import { useEffect, useRef, useState } from 'react';
import { isInProduction } from '../../../domain/order-state.js';
import type { AdminOrderDetail } from '../../../domain/staff-api.js';
import type { AdminJob, StudioState } from '../../../domain/staff-api.js';
import { Badge, ErrorAlert } from './admin-ui.js';
import { formatDateTime, STUDIO_ERRORS } from './admin-format.js';
import { toApiError, useStaff } from './staff-session.js';
import { useAdminQuery } from './use-admin-query.js';

const MODES: { key: StudioState['productionMode']; label: string; hint: string }[] = [
  { key: 'studio', label: 'Studio', hint: 'Entwürfe werden nach der Zahlung automatisch erstellt (Zuschnitt, Hintergrund, Licht).' },
  { key: 'generator', label: 'Externer Generator', hint: 'Ein generatives Modell erstellt die Bilder (z. B. für Outfits); die Ergebnisse landen als Entwürfe hier.' },
  { key: 'manual', label: 'Manuell', hint: 'Bilder werden von Hand erstellt und unten hochgeladen.' },
];

export const JOB_STATUS: Record<AdminJob['status'], { label: string; tone: string }> = {
  pending: { label: 'Wartet', tone: 'grey' },
  running: { label: 'Läuft', tone: 'blue' },
  done: { label: 'Fertig', tone: 'green' },
  failed: { label: 'Fehlgeschlagen', tone: 'red' },
  dead: { label: 'Abgebrochen', tone: 'red' },
};

export const JOB_NAMES: Record<string, string> = { 'studio.drafts': 'Studio-Entwürfe', 'generator.predict': 'Externer Generator', 'generator.selfcheck': 'Generator-Selbsttest' };

/** Polls while something is under way; tells the page when a job finished so it reloads the images. */
export function StudioPanel({ detail, onFinished }: { detail: AdminOrderDetail; onFinished: () => void }) {
  const { request } = useStaff();
  const query = useAdminQuery<StudioState>(`/api/admin/orders/${detail.order.id}/studio`);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  // The choice shows at once; the server's answer replaces it.
  const [chosenMode, setChosenMode] = useState<StudioState['productionMode'] | null>(null);
  const active = query.data?.jobs.some((job) => job.status === 'pending' || job.status === 'running') ?? false;
  const wasActive = useRef(false);
  const { reload } = query;

  // The images section changed (a draft regenerated, a reload): look at the jobs again too.
  useEffect(() => reload(), [detail, reload]);

  useEffect(() => {
    if (!active) return;
    const timer = setInterval(reload, 2000);
    return () => clearInterval(timer);
  }, [active, reload]);

  useEffect(() => {
    if (wasActive.current && !active) onFinished();
    wasActive.current = active;
  }, [active, onFinished]);

  const post = async (path: string, body: object, failure: string): Promise<boolean> => {
    setBusy(true);
    setError(null);
    try {
      await request(path, { method: 'POST', body });
      reload();
      return true;
    } catch (caught) {
      const code = toApiError(caught).code;
      setError(STUDIO_ERRORS[code] ?? failure);
      return false;
    } finally {
      setBusy(false);
      setConfirming(false);
    }
  };

  const state = query.data;
  // The server's answer has caught up with the choice: it shows from there.
  if (chosenMode && state?.productionMode === chosenMode) setChosenMode(null);
  const paid = isInProduction(detail.order);
  return (
    <section className="card admin-card" aria-labelledby="studio-title" data-testid="studio-panel">
      <h2 id="studio-title">Bilderstellung</h2>
      {query.error && !state && <ErrorAlert>Fehler beim Laden der Bilderstellung</ErrorAlert>}
      {state && (
        <>
          <fieldset className="admin-modes">
            <legend>Wer erstellt die Bilder?</legend>
            {MODES.map((mode) => (
              <label key={mode.key} className="admin-mode">
                <input
                  type="radio"
                  name="production-mode"
                  value={mode.key}
                  checked={(chosenMode ?? state.productionMode) === mode.key}
                  disabled={busy || (mode.key === 'generator' && !state.generatorConfigured)}
                  onChange={() => {
                    setChosenMode(mode.key);
                    void post(`/api/admin/orders/${detail.order.id}/studio/mode`, { mode: mode.key }, 'Fehler beim Ändern des Modus').then((ok) => {
                      if (!ok) setChosenMode(null);
                    });
                  }}
                  data-testid={`mode-${mode.key}`}
                />
                <span>
                  <strong>{mode.label}</strong>
                  <span className="admin-muted">
                    {' '}
                    – {mode.key === 'generator' && !state.generatorConfigured ? 'nicht eingerichtet (GENERATOR)' : mode.hint}
                  </span>
                </span>
              </label>
            ))}
          </fieldset>
          {state.productionMode === 'studio' && paid && (
            <div className="admin-actions">
              {confirming ? (
                <div className="confirm admin-confirm" role="alertdialog" aria-labelledby="regenerate-all-question">
                  <p id="regenerate-all-question">Alle noch nicht veröffentlichten Entwürfe verwerfen und neu erstellen?</p>
                  <div className="confirm__actions">
                    <button type="button" className="button button--primary button--small" disabled={busy} onClick={() => void post(`/api/admin/orders/${detail.order.id}/studio/regenerate`, {}, 'Fehler beim Neu-Erstellen')} data-testid="confirm-regenerate-all">
                      Neu erstellen
                    </button>
                    <button type="button" className="button button--secondary button--small" onClick={() => setConfirming(false)} autoFocus>
                      Abbrechen
                    </button>
                  </div>
                </div>
              ) : (
                <button type="button" className="button button--secondary button--small" disabled={busy || active} onClick={() => setConfirming(true)} data-testid="regenerate-all">
                  Alle Entwürfe neu erstellen
                </button>
              )}
            </div>
          )}
          {error && <ErrorAlert testId="studio-error">{error}</ErrorAlert>}
          {state.jobs.length === 0 ? (
            <p className="admin-muted">Noch keine Aufträge für diese Bestellung.</p>
          ) : (
            <ol className="admin-jobs" aria-label="Aufträge">
              {state.jobs.slice(0, 6).map((job) => (
                <JobLine key={job.id} job={job} busy={busy} onRetry={() => void post(`/api/admin/jobs/${job.id}/retry`, {}, 'Fehler beim Wiederholen')} />
              ))}
            </ol>
          )}
        </>
      )}
    </section>
  );
}

/** Why the gate discarded a generated picture (src/studio/output-gate.ts). */
const REJECTIONS: Record<string, string> = {
  otherPerson: 'nicht die Person der Bestellung',
  noFace: 'kein Gesicht',
  multipleFaces: 'mehrere Gesichter',
  blurred: 'unscharf',
  badLight: 'zu dunkel oder zu hell',
  tilted: 'Kopf zu schräg',
  noDescriptor: 'Gesicht nicht vergleichbar',
  tooTight: 'zu eng: das Gesicht wäre größer, als das Studio es liefert',
};

export function JobLine({ job, busy, onRetry, children }: { job: AdminJob; busy: boolean; onRetry: () => void; children?: React.ReactNode }) {
  const status = JOB_STATUS[job.status];
  const total = job.progress?.total ?? 0;
  const done = job.progress?.done ?? 0;
  return (
    <li className="admin-job" data-testid="studio-job" data-status={job.status}>
      <span className="admin-job__main">
        <strong>{JOB_NAMES[job.queue] ?? job.queue}</strong>
        <Badge tone={status.tone} testId="job-status">
          {status.label}
        </Badge>
        <span className="admin-muted">
          #{job.id} · {formatDateTime(job.createdAt)} · Versuch {job.attempts} von {job.maxAttempts}
        </span>
        {children}
      </span>
      {total > 0 && (
        <span className="admin-job__progress">
          <progress max={total} value={done} aria-label={`${done} von ${total} Bildern`} /> {done} von {total} Bildern
          {job.progress?.refused ? ` · ${job.progress.refused} nicht gemacht: Gesicht im Entwurf nicht als das der Kundin oder des Kunden erkannt` : ''}
        </span>
      )}
      {job.progress?.discarded && job.progress.discarded.length > 0 && (
        <details className="admin-job__discarded" data-testid="job-discarded">
          <summary>
            {job.progress.discarded.length} {job.progress.discarded.length === 1 ? 'Bild' : 'Bilder'} vom Generator verworfen, nie Entwurf geworden
            {job.progress.missing?.length ? ` · aufgegeben: Bild ${job.progress.missing.map((i) => i + 1).join(', ')}` : ''}
          </summary>
          <ul>
            {job.progress.discarded.map((d) => (
              <li key={`${d.picture}-${d.attempt}`}>
                Bild {d.picture + 1}, Versuch {d.attempt + 1}: {REJECTIONS[d.reason] ?? d.reason}
                {d.distance !== undefined ? ` (Abstand ${d.distance.toFixed(2).replace('.', ',')}, Grenze ${(job.progress?.identityLimit ?? 0).toFixed(2).replace('.', ',')})` : ''}
              </li>
            ))}
          </ul>
        </details>
      )}
      {job.lastError && job.status !== 'done' && <span className="admin-job__error">Letzter Fehler: {job.lastError}</span>}
      {job.status === 'dead' && (
        <button type="button" className="button button--secondary button--small" onClick={onRetry} disabled={busy} data-testid="job-retry">
          Erneut versuchen
        </button>
      )}
    </li>
  );
}
