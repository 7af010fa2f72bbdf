// The order's pictures in its detail page: drafts and results with their status, publishing all drafts once each
// has been seen, and the lightbox that takes a reviewer through them.
import { ErrorAlert } from './admin-ui.js';
import { Lightbox } from './lightbox.js';
import { ResultItem } from './result-item.js';
import { useDraftReview } from './use-draft-review.js';
import { useResultChanges, type ResultChangeProps } from './use-result-changes.js';

const draftCount = (count: number) => (count === 1 ? '1 Entwurf' : `${count} Entwürfe`);

/**
 * Generated images with their status; staff publish, archive or delete them one by one, in the card or in the
 * lightbox (where the keys take a reviewer through every draft). Publishing all drafts at once needs each of them
 * looked at in the lightbox first: a person decides what the customer gets, not a button.
 */
export function ResultsSection(props: ResultChangeProps & { reloading: boolean }) {
  const { detail } = props;
  const changes = useResultChanges(props);
  const { busy, error } = changes;
  const review = useDraftReview(detail, changes.setStatus);
  const { drafts, unseen, deleted, visible } = review;

  return (
    <section className="card admin-card" aria-labelledby="results-title">
      <div className="card__head">
        <h2 id="results-title">Entwürfe und Ergebnisse ({detail.results.length - deleted})</h2>
        <div className="admin-actions">
          {drafts.length > 0 && (
            <button
              type="button"
              className="button button--primary button--small"
              onClick={review.publishAll}
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
      {review.confirmingAll && drafts.length > 0 && (
        <div className="confirm admin-confirm admin-confirm--publish" role="alertdialog" aria-labelledby="publish-all-question">
          <p id="publish-all-question">{draftCount(drafts.length)} veröffentlichen?</p>
          <div className="confirm__actions">
            <button type="button" className="button button--primary button--small" onClick={review.confirmPublishAll} disabled={busy !== null} data-testid="confirm-publish-all">
              Veröffentlichen
            </button>
            <button type="button" className="button button--secondary button--small" onClick={() => review.setConfirmingAll(false)} autoFocus data-testid="cancel-publish-all">
              Abbrechen
            </button>
          </div>
        </div>
      )}
      {deleted > 0 && (
        <label className="admin-check">
          <input type="checkbox" checked={review.showDeleted} onChange={(e) => review.setShowDeleted(e.target.checked)} /> Gelöschte anzeigen ({deleted})
        </label>
      )}
      {error && <ErrorAlert testId="result-error">{error}</ErrorAlert>}
      {visible.length === 0 ? (
        <p className="admin-empty">Noch keine generierten Bilder vorhanden</p>
      ) : (
        <ul className="admin-images">
          {visible.map((result) => (
            <ResultItem key={result.id} result={result} changes={changes} onOpen={() => review.openLightbox(result.id)} />
          ))}
        </ul>
      )}
      {review.current && (
        <Lightbox
          items={review.items}
          index={review.openIndex}
          onIndex={review.showIndex}
          onClose={review.closeLightbox}
          onViewed={review.markSeen}
          actions={review.lightboxActions(review.current)}
          busy={busy !== null}
          notice={review.notice}
          message={review.message}
          error={error}
        />
      )}
    </section>
  );
}
