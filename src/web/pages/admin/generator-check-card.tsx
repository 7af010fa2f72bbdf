// The generator's self-check for staff (src/server/modules/production/generator-self-check.ts): one real prediction
// with a public-domain test face, its picture through the identity gate. Shown only where a generator is set up.
import { useEffect, useState } from 'react';
import { formatDateTime } from './admin-format.js';
import { Badge, ErrorAlert } from './admin-ui.js';
import { useStaff } from './staff-session.js';
import { useAdminQuery } from './use-admin-query.js';

interface SelfCheck {
  configured: boolean;
  latest: {
    jobId: number;
    status: 'pending' | 'running' | 'done' | 'failed' | 'dead';
    lastError: string | null;
    pictureUrl: string | null;
    result: {
      ok: boolean;
      problems: string[];
      model: string;
      kind: string;
      profile: string;
      inputs: Record<string, unknown> | null;
      seconds: number | null;
      predictTime: number | null;
      cost: number | null;
      distance: number | null;
      limit: number;
      verdict: string | null;
      finishedAt: string;
    } | null;
  } | null;
}

const decimal = (n: number, digits: number) => n.toFixed(digits).replace('.', ',');

export function GeneratorCheckCard() {
  const { request } = useStaff();
  const { data, reload } = useAdminQuery<SelfCheck>('/api/admin/generator/self-check');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(false);
  const latest = data?.latest ?? null;
  const running = latest?.status === 'pending' || latest?.status === 'running';
  // While it runs (a real prediction: seconds to minutes), the card looks again every few seconds.
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(reload, 3000);
    return () => clearInterval(timer);
  }, [running, reload]);
  if (!data?.configured) return null;
  const start = async () => {
    setBusy(true);
    setError(false);
    try {
      await request('/api/admin/generator/self-check', { method: 'POST', body: {} });
      reload();
    } catch {
      setError(true);
    } finally {
      setBusy(false);
    }
  };
  const result = latest?.result ?? null;
  return (
    <section className={`card admin-card${result && !result.ok ? ' admin-card--alert' : ''}`} aria-labelledby="generator-check-title" data-testid="generator-check">
      <h2 id="generator-check-title">Generator-Selbsttest</h2>
      <p className="admin-muted">Eine echte Generierung mit einem gemeinfreien Testgesicht (kostet eine Generierung beim Anbieter), geprüft wie jedes Kundenbild.</p>
      {error && <ErrorAlert>Der Selbsttest konnte nicht gestartet werden.</ErrorAlert>}
      {running && <p data-testid="generator-check-running">Läuft … (Auftrag #{latest.jobId})</p>}
      {latest && !running && !result && <p className="admin-job__error">Abgebrochen: {latest.lastError ?? 'ohne Angabe'}</p>}
      {result && !running && (
        <div className="admin-selfcheck" data-testid="generator-check-result">
          <p>
            <Badge tone={result.ok ? 'green' : 'red'} testId="generator-check-verdict">
              {result.ok ? 'Bestanden' : 'Nicht bestanden'}
            </Badge>{' '}
            <span className="admin-muted">{formatDateTime(result.finishedAt)}</span>
          </p>
          {result.problems.length > 0 && (
            <ul className="admin-job__error">
              {result.problems.map((problem) => (
                <li key={problem}>{problem}</li>
              ))}
            </ul>
          )}
          <dl className="admin-selfcheck__facts">
            <dt>Modell</dt>
            <dd>
              {result.model} ({result.kind}), Profil {result.profile}
            </dd>
            <dt>Dauer</dt>
            <dd>
              {result.seconds !== null ? `${decimal(result.seconds, 1)} s bis zum Bild im Shop` : '–'}
              {result.predictTime !== null ? `, davon Modell ${decimal(result.predictTime, 1)} s` : ''}
            </dd>
            <dt>Kosten</dt>
            <dd>{result.cost === null ? 'vom Anbieter nicht gemeldet' : String(result.cost)}</dd>
            <dt>Identität</dt>
            <dd>{result.distance !== null ? `Abstand ${decimal(result.distance, 2)} zum Testgesicht (Grenze ${decimal(result.limit, 2)})` : '–'}</dd>
          </dl>
          {result.inputs && (
            <details>
              <summary>Gesendete Eingaben</summary>
              <pre className="admin-prewrap">{JSON.stringify(result.inputs, null, 2)}</pre>
            </details>
          )}
          {latest?.pictureUrl && <img className="admin-selfcheck__picture" src={latest.pictureUrl} alt="Bild des Selbsttests" width={200} />}
        </div>
      )}
      <button type="button" className="button button--secondary button--small" onClick={() => void start()} disabled={busy || running} data-testid="generator-check-start">
        Selbsttest starten
      </button>
    </section>
  );
}
