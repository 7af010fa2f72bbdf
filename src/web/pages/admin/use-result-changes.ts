// The results section's changes to the order's pictures (results-section.tsx): a status sent for one picture or
// for several in turn, and a studio draft made again.
import { useState } from 'react';
import type { AdminOrderDetail, AdminResult, ResultStatus } from '../../../domain/staff-api.js';
import { STUDIO_ERRORS } from './admin-format.js';
import { toApiError, useStaff } from './staff-session.js';

/** What staff can make of a picture of each status, by a button in its card or in the lightbox. */
export const RESULT_ACTIONS: Record<ResultStatus, { to: ResultStatus; label: string; testId: string }[]> = {
  draft: [{ to: 'active', label: 'Veröffentlichen', testId: 'publish' }],
  archived: [{ to: 'active', label: 'Veröffentlichen', testId: 'publish' }],
  active: [{ to: 'archived', label: 'Archivieren', testId: 'archive' }],
  deleted: [],
};

export interface ResultChangeProps {
  detail: AdminOrderDetail;
  /** The order as the server answered a change. */
  onChange: (detail: AdminOrderDetail) => void;
  onReload: () => void;
}

/** busy: the result being changed ('all' for several); confirming: the result whose deletion is asked about. */
export function useResultChanges(props: ResultChangeProps) {
  const { request } = useStaff();
  const { detail } = props;
  const [busy, setBusy] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

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

  return { busy, confirming, setConfirming, error, regenerate, setStatus };
}

export type ResultChanges = ReturnType<typeof useResultChanges>;
