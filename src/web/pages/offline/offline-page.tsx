// What the service worker shows for a page it cannot fetch and has not kept: served without scripts,
// so "try again" is a plain form that asks for the same address again.
import { useI18n } from '../../lib/i18n.js';

export function OfflinePage() {
  const { t } = useI18n();
  return (
    <section className="error-page" aria-labelledby="offline-title" data-testid="offline-page">
      <h1 id="offline-title">{t('common.offline.title')}</h1>
      <p>{t('common.offline.text')}</p>
      <div className="error-page__actions">
        <form method="get">
          <button type="submit" className="button button--primary">
            {t('common.offline.retry')}
          </button>
        </form>
        <a className="button button--secondary" href="/">
          {t('common.offline.home')}
        </a>
      </div>
    </section>
  );
}
