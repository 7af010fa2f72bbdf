// Registers the service worker and, when a new version waits while an older one controls the page,
// offers 'Aktualisieren' or 'Später' (spec: the notice disappears after 30 s). The waiting worker takes over
// only on that click; the page reloads on the controller change.
import { useEffect, useState } from 'react';
import { useI18n } from '../lib/i18n.js';

export const UPDATE_NOTICE_MS = 30_000;
export const SERVICE_WORKER_URL = '/sw.js';

export function UpdateNotice() {
  const { t } = useI18n();
  const [waiting, setWaiting] = useState<ServiceWorker | null>(null);

  useEffect(() => {
    // The Vite dev server has no built worker; production builds register it.
    if (import.meta.env.DEV || !('serviceWorker' in navigator)) return;
    const container = navigator.serviceWorker;
    let reloading = false;
    const onControllerChange = () => {
      if (reloading) return;
      reloading = true;
      window.location.reload();
    };
    container.addEventListener('controllerchange', onControllerChange);

    let registration: ServiceWorkerRegistration | null = null;
    const offer = (worker: ServiceWorker | null) => {
      // Without a controller this is the first install: nothing old to replace, nothing to offer.
      if (worker && container.controller) setWaiting(worker);
    };
    const onUpdateFound = () => {
      const installing = registration?.installing;
      installing?.addEventListener('statechange', () => {
        if (installing.state === 'installed') offer(installing);
      });
    };
    container
      .register(SERVICE_WORKER_URL)
      .then((reg) => {
        registration = reg;
        offer(reg.waiting);
        reg.addEventListener('updatefound', onUpdateFound);
      })
      .catch(() => {
        // No worker (private mode, blocked): the site works as before, just not offline.
      });
    return () => {
      container.removeEventListener('controllerchange', onControllerChange);
      registration?.removeEventListener('updatefound', onUpdateFound);
    };
  }, []);

  useEffect(() => {
    if (!waiting) return;
    const timer = setTimeout(() => setWaiting(null), UPDATE_NOTICE_MS);
    return () => clearTimeout(timer);
  }, [waiting]);

  if (!waiting) return null;
  return (
    <div className="update-notice" role="status" data-testid="update-notice">
      <p>{t('common.update.text')}</p>
      <div className="update-notice__actions">
        <button type="button" className="button button--secondary" onClick={() => setWaiting(null)}>
          {t('common.update.later')}
        </button>
        <button type="button" className="button button--primary" onClick={() => waiting.postMessage({ type: 'SKIP_WAITING' })}>
          {t('common.update.reload')}
        </button>
      </div>
    </div>
  );
}
