// Consent for third-party services (docs/rules.md §4): analytics and chat are optional, configured by
// the operator, and load only after the visitor agrees. Rejecting takes one click, as accepting does; the
// footer's cookie link opens the settings again. Without such services there is nothing to ask.
import { Suspense, createContext, lazy, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { CONSENT_KINDS } from '../../domain/site.js';
import { useAppData } from '../app-data.js';
import { readChoice, storeChoice, type ConsentChoice } from './consent-choice.js';

// The banner and the settings load when the browser shows them: only a shop with such a service asks, and
// never in the server's HTML (the browser decides after reading its storage).
const ConsentDialog = lazy(() => import('./consent-dialog.js').then((m) => ({ default: m.ConsentDialog })));

const loaded = new Set<string>();

function loadScript(url: string): void {
  if (loaded.has(url)) return;
  loaded.add(url);
  const script = document.createElement('script');
  script.src = url;
  script.async = true;
  script.dataset.consent = 'granted';
  document.head.appendChild(script);
}

interface ConsentContextValue {
  /** True when the operator configured a service that needs consent. */
  needed: boolean;
  openSettings: () => void;
}

const ConsentContext = createContext<ConsentContextValue>({ needed: false, openSettings: () => {} });

export function useConsent(): ConsentContextValue {
  return useContext(ConsentContext);
}

export function ConsentProvider({ children }: { children: ReactNode }) {
  const { consent: services } = useAppData();
  const kinds = useMemo(() => CONSENT_KINDS.filter((kind) => services[kind]), [services]);
  // undefined until the browser has been asked: the server renders no banner, the browser decides.
  const [choice, setChoice] = useState<ConsentChoice | null | undefined>(undefined);
  const [view, setView] = useState<'banner' | 'settings' | null>(null);
  const returnFocus = useRef<HTMLElement | null>(null);

  useEffect(() => {
    if (!kinds.length) return;
    const stored = readChoice(services);
    // Browser storage is read after hydration: the server cannot know the choice.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setChoice(stored);
    if (!stored) setView('banner');
  }, [kinds, services]);

  useEffect(() => {
    if (!choice) return;
    for (const kind of kinds) if (choice[kind]) loadScript(services[kind]!.scriptUrl);
  }, [choice, kinds, services]);

  const decide = useCallback(
    (next: ConsentChoice) => {
      const withdrawn = choice && kinds.some((kind) => choice[kind] && !next[kind]);
      storeChoice(services, next);
      setChoice(next);
      setView(null);
      returnFocus.current?.focus();
      // A script that already runs cannot be taken back: a fresh page load leaves it out.
      if (withdrawn) window.location.reload();
    },
    [choice, kinds, services],
  );

  const openSettings = useCallback(() => {
    returnFocus.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    setView('settings');
  }, []);

  const value = useMemo(() => ({ needed: kinds.length > 0, openSettings }), [kinds, openSettings]);
  return (
    <ConsentContext.Provider value={value}>
      {children}
      {view && kinds.length > 0 && (
        <Suspense fallback={null}>
          <ConsentDialog
            kinds={kinds}
            services={services}
            current={choice ?? null}
            settings={view === 'settings'}
            onSettings={() => setView('settings')}
            onDecide={decide}
            onClose={choice ? () => decide(choice) : null}
          />
        </Suspense>
      )}
    </ConsentContext.Provider>
  );
}
