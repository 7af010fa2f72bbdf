// The pictures of one order: the customer's originals, uploading results, and publishing them.
import { useRef, useState, type ChangeEvent } from 'react';
import type { PhotoWarning } from '../../../domain/order-views.js';
import type { AdminOrderDetail, AdminResult, AdminUpload, ResultStatus } from './admin-types.js';
import { Badge, Lightbox, SafeImage, type LightboxAction, type LightboxItem } from './admin-ui.js';
import { fileFacts, formatDateTime, outfitName, resultStatusLabel, resultStatusTone, STUDIO_ERRORS } from './admin-format.js';
import { toApiError, useStaff } from './staff-session.js';

const MAX_RESULT_BYTES = 10 * 1024 * 1024;
const RESULT_TYPES = ['image/png', 'image/jpeg'];

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
                  Prüfung: {upload.quality.verdict === 'ok' ? 'gut geeignet' : upload.quality.verdict === 'warning' ? `Hinweise (${upload.quality.warnings.map((w) => WARNING_LABELS[w as PhotoWarning] ?? w).join(', ')})` : 'nicht geprüft'}
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

const ACTIONS: Record<ResultStatus, { to: ResultStatus; label: string; testId: string }[]> = {
  draft: [{ to: 'active', label: 'Veröffentlichen', testId: 'publish' }],
  archived: [{ to: 'active', label: 'Veröffentlichen', testId: 'publish' }],
  active: [{ to: 'archived', label: 'Archivieren', testId: 'archive' }],
  deleted: [],
};

const FORMAT_LABELS: Record<string, string> = { portrait: '4:5', square: '1:1', application: '35 × 45 mm' };
const VARIATION_LABELS: Record<number, string> = { 1: 'weiterer Ausschnitt', 2: 'engerer Ausschnitt' };
const REDO_LABELS: Record<string, string> = { tighter: 'engerer Ausschnitt', looser: 'weiterer Ausschnitt', photo: 'anderes Foto', backdrop: 'anderer Hintergrund' };
const BACKDROP_LABELS: Record<string, string> = { studio: 'Studio', office: 'Büro', creative: 'Kreativ', own: 'eigener Hintergrund, unscharf' };

/** Where a studio draft comes from, for the reviewer: format, backdrop, and the outfit the customer asked for. */
export function variantText(result: AdminResult): string | null {
  const variant = result.variant;
  if (result.generationType === 'external' && variant) return generatorText(variant);
  if (result.generationType !== 'studio' || !variant) return null;
  const parts = [FORMAT_LABELS[variant.format ?? ''] ?? variant.format, variant.backdrop ? `${BACKDROP_LABELS[variant.backdrop.kind] ?? variant.backdrop.kind} ${variant.backdrop.variant + 1}` : null];
  if (variant.variation) parts.push(VARIATION_LABELS[variant.variation] ?? null);
  if (variant.gentle) parts.push('ohne Hautglättung und Stil (sonst nicht wiedererkannt)');
  if (variant.identity) parts.push(identityText(variant.identity));
  if (variant.requestedOutfit) parts.push(`gewünschtes Outfit: ${outfitName(variant.requestedOutfit)} (Kleidung unverändert)`);
  if (variant.redo) parts.push(variant.redo.length ? `Nachbesserung, laut Hinweis geändert: ${variant.redo.map((change) => REDO_LABELS[change] ?? change).join(', ')}` : 'Nachbesserung (aus dem Hinweis nichts gelesen)');
  return `Studio · ${parts.filter(Boolean).join(' · ')}`;
}

const decimal = (value: number) => value.toLocaleString('de-DE', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const identityText = (identity: { distance: number; limit: number }) => `Identität ${decimal(identity.distance)} (Grenze ${decimal(identity.limit)}, kleiner ist ähnlicher)`;

/** A generator's draft: format, picture, outfit and background asked for, and how alike the face is. */
function generatorText(variant: NonNullable<AdminResult['variant']>): string {
  const parts = [
    FORMAT_LABELS[variant.format ?? ''] ?? variant.format,
    typeof variant.index === 'number' ? `Bild ${variant.index + 1}` : null,
    variant.identity ? identityText(variant.identity) : null,
    // What the model was asked for: staff check the picture shows it.
    variant.outfit ? `verlangt – Outfit: ${variant.outfit.description}` : null,
    variant.background ? `Hintergrund: ${variant.background.description}` : null,
  ];
  return `${variant.generator ?? 'Generator'} · ${parts.filter(Boolean).join(' · ')}`;
}

const DECIDED: Record<ResultStatus, string> = { active: 'veröffentlicht', archived: 'archiviert', deleted: 'abgelehnt (gelöscht)', draft: 'zurück als Entwurf' };

const draftCount = (count: number) => (count === 1 ? '1 Entwurf' : `${count} Entwürfe`);

/**
 * Generated images with their status; staff publish, archive or delete them one by one, in the card or in the
 * lightbox (where the keys take a reviewer through every draft). Publishing all drafts at once needs each of them
 * looked at in the lightbox first: a person decides what the customer gets, not a button.
 */
export function ResultsSection(props: { detail: AdminOrderDetail; onChange: (detail: AdminOrderDetail) => void; onReload: () => void; reloading: boolean }) {
  const { request } = useStaff();
  const { detail } = props;
  const [busy, setBusy] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [showDeleted, setShowDeleted] = useState(false);
  // The lightbox follows a result, not a position: a decision changes the list under it.
  const [openId, setOpenId] = useState<string | null>(null);
  // Drafts loaded in the lightbox (a thumbnail is too small to judge a face). Kept for this visit of the page only.
  const [seen, setSeen] = useState<ReadonlySet<string>>(() => new Set());
  // The lightbox was opened by "publish all" because drafts were unseen: it says so, and asks again when closed.
  const [reviewing, setReviewing] = useState(false);
  const [confirmingAll, setConfirmingAll] = useState(false);
  const [message, setMessage] = useState<string | null>(null);

  const deleted = detail.results.filter((result) => result.status === 'deleted').length;
  const visible = detail.results.filter((result) => showDeleted || result.status !== 'deleted');
  const drafts = detail.results.filter((result) => result.status === 'draft');
  const unseen = drafts.filter((result) => !seen.has(result.id));
  const items: LightboxItem[] = visible.map((result) => ({
    key: result.id,
    src: result.url,
    alt: `Generiertes Bild ${result.fileName}`,
    caption: result.fileName,
    downloadUrl: result.url,
    badge: { tone: resultStatusTone(result.status), label: resultStatusLabel(result.status) },
  }));
  const openIndex = openId === null ? -1 : visible.findIndex((result) => result.id === openId);
  const current = visible[openIndex];

  const regenerate = async (result: AdminResult) => {
    setBusy(result.id);
    setError(null);
    try {
      await request(`/api/admin/orders/${detail.order.id}/studio/regenerate`, { method: 'POST', body: { draftId: result.id } });
      props.onReload();
    } catch (caught) {
      setError(STUDIO_ERRORS[toApiError(caught).code] ?? 'Fehler beim Neu-Erstellen des Entwurfs');
    } finally {
      setBusy(null);
    }
  };

  /** Sends the status of each result in turn; the order as the server has it after the last one, or null on failure. */
  const setStatus = async (results: AdminResult[], status: ResultStatus): Promise<AdminOrderDetail | null> => {
    setBusy(results.length === 1 ? (results[0]?.id ?? null) : 'all');
    setError(null);
    setConfirming(null);
    let latest: AdminOrderDetail | null = null;
    let failed = false;
    try {
      for (const result of results) {
        latest = await request<AdminOrderDetail>(`/api/admin/orders/${detail.order.id}/results/${result.id}/status`, { method: 'POST', body: { status } });
      }
    } catch {
      failed = true;
      setError(status === 'deleted' ? 'Fehler beim Löschen des Bildes' : 'Fehler beim Aktualisieren des Bildstatus');
    } finally {
      setBusy(null);
    }
    if (latest) props.onChange(latest);
    // Part of a batch may have gone through: show what the server has now.
    if (results.length > 1 && !latest) props.onReload();
    return failed ? null : latest;
  };

  const openLightbox = (id: string, review = false) => {
    setOpenId(id);
    setReviewing(review);
    setMessage(null);
    setConfirmingAll(false);
  };
  const markSeen = (id: string) => setSeen((before) => (before.has(id) ? before : new Set(before).add(id)));
  const closeLightbox = () => {
    setOpenId(null);
    setMessage(null);
    // Sent to look by "publish all", and now everything is seen: the question it was about comes next.
    if (reviewing && drafts.length > 0 && unseen.length === 0) setConfirmingAll(true);
    setReviewing(false);
  };

  const publishAll = () => {
    const first = unseen[0];
    if (first) openLightbox(first.id, true);
    else setConfirmingAll(true);
  };
  const confirmPublishAll = () => {
    setConfirmingAll(false);
    // A draft that arrived while the question was open (the studio is still working) has not been seen either.
    const first = unseen[0];
    if (first) openLightbox(first.id, true);
    else void setStatus(drafts, 'active');
  };

  /** A decision in the lightbox; a draft's is followed by the next draft, so the keys alone go through all of them. */
  const decide = async (result: AdminResult, status: ResultStatus) => {
    // The drafts after this one in the card, then those before it: chosen before the list changes under us.
    const position = visible.findIndex((candidate) => candidate.id === result.id);
    const after = [...visible.slice(position + 1), ...visible.slice(0, Math.max(position, 0))].map((candidate) => candidate.id);
    setMessage(null);
    const latest = await setStatus([result], status);
    if (!latest) return;
    const done = `${result.fileName} ${DECIDED[status]}.`;
    if (result.status !== 'draft') {
      setMessage(done);
      return;
    }
    const remaining = latest.results.filter((candidate) => candidate.status === 'draft');
    const next = after.map((id) => remaining.find((candidate) => candidate.id === id)).find((candidate) => candidate !== undefined) ?? remaining[0];
    if (next) {
      setOpenId(next.id);
      setMessage(`${done} Weiter mit dem nächsten Entwurf (noch ${remaining.length} offen).`);
      return;
    }
    // That was the last draft: stay and show its new status, or its neighbour when it has left the list.
    const nowVisible = latest.results.filter((candidate) => showDeleted || candidate.status !== 'deleted');
    if (!nowVisible.some((candidate) => candidate.id === result.id)) setOpenId(nowVisible[Math.min(position, nowVisible.length - 1)]?.id ?? null);
    setMessage(`${done} Alle Entwürfe sind entschieden.`);
  };

  const lightboxActions = (result: AdminResult): LightboxAction[] => {
    const actions: LightboxAction[] = ACTIONS[result.status].map((action) => ({
      id: `lightbox-${action.testId}`,
      label: action.label,
      tone: action.to === 'active' ? 'primary' : 'secondary',
      ...(action.to === 'active' ? { keys: ['v', 'V'], keyLabel: 'V' } : {}),
      run: () => void decide(result, action.to),
    }));
    if (result.status === 'draft') {
      actions.push({
        id: 'lightbox-reject',
        label: 'Ablehnen',
        keys: ['x', 'X', 'Delete'],
        keyLabel: 'X',
        tone: 'danger',
        // As in the card: a deleted picture cannot be brought back from here.
        confirm: { question: `${result.fileName} ablehnen? Der Entwurf wird gelöscht.`, label: 'Ablehnen' },
        run: () => void decide(result, 'deleted'),
      });
    }
    return actions;
  };

  const seenText = `${drafts.length - unseen.length} von ${drafts.length} angesehen`;
  const notice =
    reviewing && drafts.length > 0
      ? unseen.length > 0
        ? `Bitte erst alle Entwürfe ansehen: ${seenText}`
        : `${drafts.length === 1 ? 'Der Entwurf ist' : `Alle ${drafts.length} Entwürfe sind`} angesehen. ` +
          'Nach dem Schließen folgt die Frage, ob veröffentlicht wird.'
      : null;

  return (
    <section className="card admin-card" aria-labelledby="results-title">
      <div className="card__head">
        <h2 id="results-title">Entwürfe und Ergebnisse ({detail.results.length - deleted})</h2>
        <div className="admin-actions">
          {drafts.length > 0 && (
            <button
              type="button"
              className="button button--primary button--small"
              onClick={publishAll}
              disabled={busy !== null}
              aria-describedby="drafts-seen"
              data-testid="publish-all"
            >
              Veröffentlichen (alle Entwürfe)
            </button>
          )}
          <button type="button" className="button button--secondary button--small" onClick={props.onReload} disabled={props.reloading} aria-busy={props.reloading} data-testid="results-refresh">
            Aktualisieren
          </button>
        </div>
      </div>
      {drafts.length > 0 && (
        <p id="drafts-seen" className="admin-muted admin-seen" data-testid="drafts-seen">
          {drafts.length - unseen.length} von {drafts.length === 1 ? '1 Entwurf' : `${drafts.length} Entwürfen`} in der Großansicht angesehen
          {unseen.length > 0 ? ' – alle auf einmal veröffentlichen geht erst, wenn jeder angesehen ist.' : '.'}
        </p>
      )}
      {confirmingAll && drafts.length > 0 && (
        <div className="confirm admin-confirm admin-confirm--publish" role="alertdialog" aria-labelledby="publish-all-question">
          <p id="publish-all-question">{draftCount(drafts.length)} veröffentlichen?</p>
          <div className="confirm__actions">
            <button type="button" className="button button--primary button--small" onClick={confirmPublishAll} disabled={busy !== null} data-testid="confirm-publish-all">
              Veröffentlichen
            </button>
            <button type="button" className="button button--secondary button--small" onClick={() => setConfirmingAll(false)} autoFocus data-testid="cancel-publish-all">
              Abbrechen
            </button>
          </div>
        </div>
      )}
      {deleted > 0 && (
        <label className="admin-check">
          <input type="checkbox" checked={showDeleted} onChange={(e) => setShowDeleted(e.target.checked)} /> Gelöschte anzeigen ({deleted})
        </label>
      )}
      {error && (
        <p className="alert alert--error" role="alert" data-testid="result-error">
          {error}
        </p>
      )}
      {visible.length === 0 ? (
        <p className="admin-empty">Noch keine generierten Bilder vorhanden</p>
      ) : (
        <ul className="admin-images">
          {visible.map((result) => (
            <li key={result.id} className={`admin-image admin-image--${result.status}`} data-testid="result-item" data-status={result.status} data-id={result.id}>
              <button type="button" className="admin-image__open" onClick={() => openLightbox(result.id)} aria-label={`${result.fileName} vergrößern`}>
                <SafeImage src={result.url} alt="" className="admin-image__img" width={200} height={250} />
              </button>
              <span className="admin-image__badge">
                <Badge tone={resultStatusTone(result.status)} testId="result-status">
                  {resultStatusLabel(result.status)}
                </Badge>
                {result.favourite && (
                  <Badge tone="yellow" testId="result-favourite">
                    ★ Favorit des Kunden
                  </Badge>
                )}
              </span>
              <div className="admin-image__body">
                <p className="admin-image__name" title={result.fileName}>
                  {result.fileName}
                </p>
                <p className="admin-image__facts">
                  {fileFacts(result)}
                  {result.publishedAt ? ` · veröffentlicht ${formatDateTime(result.publishedAt)}` : ` · erstellt ${formatDateTime(result.createdAt)}`}
                </p>
                {variantText(result) && <p className="admin-image__variant">{variantText(result)}</p>}
                {result.status !== 'deleted' &&
                  (confirming === result.id ? (
                    <div className="confirm admin-confirm" role="alertdialog" aria-labelledby={`delete-${result.id}`}>
                      <p id={`delete-${result.id}`}>Bild wirklich löschen?</p>
                      <div className="confirm__actions">
                        <button type="button" className="button button--danger button--small" onClick={() => void setStatus([result], 'deleted')} disabled={busy !== null} data-testid="confirm-delete">
                          Löschen
                        </button>
                        <button type="button" className="button button--secondary button--small" onClick={() => setConfirming(null)} autoFocus>
                          Abbrechen
                        </button>
                      </div>
                    </div>
                  ) : (
                    <div className="admin-image__actions">
                      {ACTIONS[result.status].map((action) => (
                        <button
                          key={action.to}
                          type="button"
                          className={`button button--small ${action.to === 'active' ? 'button--primary' : 'button--secondary'}`}
                          onClick={() => void setStatus([result], action.to)}
                          disabled={busy !== null}
                          aria-busy={busy === result.id}
                          data-testid={action.testId}
                        >
                          {action.label}
                        </button>
                      ))}
                      {result.generationType === 'studio' && result.status === 'draft' && (
                        <button type="button" className="button button--secondary button--small" onClick={() => void regenerate(result)} disabled={busy !== null} data-testid="regenerate">
                          Neu erstellen
                        </button>
                      )}
                      <a className="button button--secondary button--small" href={result.url} download={result.fileName}>
                        Herunterladen
                      </a>
                      <button type="button" className="button button--secondary button--small admin-danger-text" onClick={() => setConfirming(result.id)} disabled={busy !== null} data-testid="delete">
                        Löschen
                      </button>
                    </div>
                  ))}
              </div>
            </li>
          ))}
        </ul>
      )}
      {current && (
        <Lightbox
          items={items}
          index={openIndex}
          onIndex={(index) => {
            setOpenId(items[index]?.key ?? null);
            setMessage(null);
          }}
          onClose={closeLightbox}
          onViewed={markSeen}
          actions={lightboxActions(current)}
          busy={busy !== null}
          notice={notice}
          message={message}
          error={error}
        />
      )}
    </section>
  );
}
