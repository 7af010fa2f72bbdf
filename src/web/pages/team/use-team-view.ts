// The buyer's team view behind the link's token. The token is kept for this browser session and taken out of the
// address bar, as on the status page; back from the payment page, the view is asked for again until the
// payment's confirmation is there.
import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import type { TeamView } from '../../../domain/team-rules.js';
import { ApiError, api } from '../../lib/api.js';
import { orderAccessToken, rememberOrderAccess } from '../tracking/order-access.js';

/** While the payment's confirmation is on its way (the provider's webhook may come after the redirect). */
const POLL_MS = 3000;
/** How long the page waits for it before it asks the buyer to come back later. */
const POLL_LIMIT_MS = 3 * 60 * 1000;

export type TeamProblem = 'noAccess' | 'expired' | 'loadError';

export function useTeamView(id: string, validId: boolean) {
  const navigate = useNavigate();
  const [token, setToken] = useState<string | null>(null);
  const [view, setView] = useState<TeamView | null>(null);
  const [problem, setProblem] = useState<TeamProblem | null>(null);
  const [arrival, setArrival] = useState<{ paid: boolean; cancelled: boolean }>({ paid: false, cancelled: false });
  const [loading, setLoading] = useState(false);
  const pollStarted = useRef<number | null>(null);

  const load = useCallback(
    async (proof: string) => {
      setLoading(true);
      try {
        setView(await api<TeamView>(`/api/teams/${id}`, { headers: { 'x-status-token': proof } }));
        setProblem(null);
      } catch (caught) {
        if (caught instanceof ApiError && caught.code === 'linkExpired') setProblem('expired');
        else if (caught instanceof ApiError && caught.status === 404) setProblem('noAccess');
        else setProblem('loadError');
      } finally {
        setLoading(false);
      }
    },
    [id],
  );

  useEffect(() => {
    if (!validId) return;
    const params = new URLSearchParams(window.location.search);
    const fromLink = params.get('token');
    if (fromLink) {
      // Remembered for this session, then out of the address bar (and the history): the link is a key.
      rememberOrderAccess(id, fromLink);
      // eslint-disable-next-line react-hooks/set-state-in-effect
      setArrival({ paid: params.get('paid') === '1', cancelled: params.get('checkout') === 'cancelled' });
      navigate(`/team/${id}`, { replace: true });
    }
    const proof = fromLink ?? orderAccessToken(id);
    if (!proof) {
      setProblem('noAccess');
      return;
    }
    setToken(proof);
    void load(proof);
  }, [id, validId, navigate, load]);

  // Back from the payment page before the payment's confirmation: ask again every few seconds, for a while.
  const waiting = Boolean(view && view.paymentStatus !== 'paid' && arrival.paid && !arrival.cancelled);
  useEffect(() => {
    if (!waiting || !token) return;
    pollStarted.current ??= Date.now();
    if (Date.now() - pollStarted.current > POLL_LIMIT_MS) return;
    const timer = setTimeout(() => void load(token), POLL_MS);
    return () => clearTimeout(timer);
  }, [waiting, token, view, load]);

  /** The view again with fresh download links, for a page left open longer than they live; null when that fails. */
  const renew = async () => {
    if (!token) return null;
    try {
      const fresh = await api<TeamView>(`/api/teams/${id}`, { headers: { 'x-status-token': token } });
      setView(fresh);
      return fresh;
    } catch {
      return null;
    }
  };

  return { token, view, setView, problem, arrival, loading, waiting, load, renew };
}
