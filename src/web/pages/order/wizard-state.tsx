// The wizard's selections: kept in session storage (they survive a reload) and mirrored into the
// server-side draft order once it exists.
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { EMPTY_SELECTION, deliverableSelection, type Selection } from '../../../domain/selection.js';
import { useAppData } from '../../app-data.js';
import { api } from '../../lib/api.js';
import { useI18n } from '../../lib/i18n.js';
import { useSessionSave } from './use-session-save.js';

export const WIZARD_STORAGE_KEY = 'order-wizard';

export interface WizardState {
  orderId: string | null;
  draftToken: string | null;
  selection: Selection;
  email: string;
  /** Optional, for the invoice. */
  billingName: string;
  billingAddress: string;
  photoConsent: boolean;
}

const INITIAL: WizardState = { orderId: null, draftToken: null, selection: EMPTY_SELECTION, email: '', billingName: '', billingAddress: '', photoConsent: false };

function load(): WizardState {
  try {
    const raw = sessionStorage.getItem(WIZARD_STORAGE_KEY);
    if (!raw) return INITIAL;
    const parsed = JSON.parse(raw) as Partial<WizardState>;
    return { ...INITIAL, ...parsed, selection: { ...EMPTY_SELECTION, ...parsed.selection } };
  } catch {
    return INITIAL;
  }
}

export function clearWizard() {
  try {
    sessionStorage.removeItem(WIZARD_STORAGE_KEY);
  } catch {
    // storage disabled: nothing to clear
  }
}

interface WizardValue {
  state: WizardState;
  /** False during server rendering and the first browser render, before session storage was read. */
  ready: boolean;
  update: (change: Partial<WizardState>) => void;
  select: (change: Partial<Selection>) => void;
  reset: () => void;
  draftHeaders: () => Record<string, string>;
}

const WizardContext = createContext<WizardValue | null>(null);

export function WizardProvider({ children }: { children: ReactNode }) {
  const { language } = useI18n();
  const { capabilities } = useAppData();
  const [state, setState] = useState<WizardState>(INITIAL);
  const [ready, setReady] = useState(false);
  const syncTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => {
    // Session storage exists only in the browser: read it after hydration. An outfit or an office chosen
    // while a generator was configured is dropped when none is: nobody could make it.
    const loaded = load();
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setState({ ...loaded, selection: deliverableSelection(loaded.selection, capabilities) });
    setReady(true);
    // Once, after hydration: the capabilities do not change while the page lives.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // Where storage is full or disabled, the server draft still has the selections.
  useSessionSave(WIZARD_STORAGE_KEY, state, ready);

  // Mirror the selections into the server draft, debounced.
  useEffect(() => {
    if (!ready || !state.orderId || !state.draftToken) return;
    clearTimeout(syncTimer.current);
    const { orderId, draftToken, selection } = state;
    syncTimer.current = setTimeout(() => {
      api(`/api/orders/${orderId}/selection`, { method: 'PUT', body: { language, selection }, headers: { 'x-draft-token': draftToken } }).catch(() => {
        // A locked or vanished draft is handled where it matters: at upload and checkout.
      });
    }, 300);
    return () => clearTimeout(syncTimer.current);
  }, [ready, state, language]);

  const update = useCallback((change: Partial<WizardState>) => setState((s) => ({ ...s, ...change })), []);
  const select = useCallback((change: Partial<Selection>) => setState((s) => ({ ...s, selection: { ...s.selection, ...change } })), []);
  const reset = useCallback(() => {
    clearWizard();
    setState(INITIAL);
  }, []);
  const value = useMemo<WizardValue>(
    () => ({
      state,
      ready,
      update,
      select,
      reset,
      draftHeaders: (): Record<string, string> => (state.draftToken ? { 'x-draft-token': state.draftToken } : {}),
    }),
    [state, ready, update, select, reset],
  );
  return <WizardContext.Provider value={value}>{children}</WizardContext.Provider>;
}

export function useWizard(): WizardValue {
  const value = useContext(WizardContext);
  if (!value) throw new Error('useWizard outside WizardProvider');
  return value;
}
