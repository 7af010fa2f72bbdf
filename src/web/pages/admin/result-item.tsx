// One picture in the results section (results-section.tsx): its thumbnail (opening the lightbox), status, facts,
// how it was made, and the buttons that change it, deleting only after a question.
import type { AdminResult } from '../../../domain/staff-api.js';
import { Badge, SafeImage } from './admin-ui.js';
import { fileFacts, formatDateTime, resultStatusLabel, resultStatusTone } from './admin-format.js';
import { RESULT_ACTIONS, type ResultChanges } from './use-result-changes.js';
import { variantText } from './variant-text.js';

export function ResultItem({ result, changes, onOpen }: { result: AdminResult; changes: ResultChanges; onOpen: () => void }) {
  const { busy, confirming, setConfirming, setStatus, regenerate } = changes;
  return (
    <li className={`admin-image admin-image--${result.status}`} data-testid="result-item" data-status={result.status} data-id={result.id}>
      <button type="button" className="admin-image__open" onClick={onOpen} aria-label={`${result.fileName} vergrößern`}>
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
              {RESULT_ACTIONS[result.status].map((action) => (
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
  );
}
