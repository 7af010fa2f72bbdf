// Reviewing the order's pictures in the lightbox (results-section.tsx): which one is open, which drafts staff have
// looked at, a decision taken there (followed by the next draft), and publishing all drafts, which needs every one
// of them seen first.
import { useState } from 'react';
import type { AdminOrderDetail, AdminResult, ResultStatus } from '../../../domain/staff-api.js';
import { resultStatusLabel, resultStatusTone } from './admin-format.js';
import type { LightboxAction, LightboxItem } from './lightbox-types.js';
import { RESULT_ACTIONS } from './use-result-changes.js';

const DECIDED: Record<ResultStatus, string> = { active: 'veröffentlicht', archived: 'archiviert', deleted: 'abgelehnt (gelöscht)', draft: 'zurück als Entwurf' };

/** setStatus: sends a status for the results (useResultChanges); the order as the server has it then, or null. */
export function useDraftReview(detail: AdminOrderDetail, setStatus: (results: AdminResult[], status: ResultStatus) => Promise<AdminOrderDetail | null>) {
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
    const actions: LightboxAction[] = RESULT_ACTIONS[result.status].map((action) => ({
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

  /** The lightbox moved to another picture (a key or a button). */
  const showIndex = (index: number) => {
    setOpenId(items[index]?.key ?? null);
    setMessage(null);
  };

  return {
    showDeleted,
    setShowDeleted,
    deleted,
    visible,
    drafts,
    unseen,
    items,
    openIndex,
    current,
    confirmingAll,
    setConfirmingAll,
    message,
    openLightbox,
    showIndex,
    markSeen,
    closeLightbox,
    publishAll,
    confirmPublishAll,
    lightboxActions,
    notice,
  };
}
