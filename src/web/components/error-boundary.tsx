// Spec: the generic error page 'An Error Occurred' with a button to the homepage.
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useI18n } from '../lib/i18n.js';
import { trackEvent } from '../lib/metrics.js';

export function ErrorPage() {
  const { t } = useI18n();
  return (
    <section className="error-page" aria-labelledby="error-title" data-testid="error-page">
      <h1 id="error-title">{t('common.error.title')}</h1>
      <p>{t('common.error.text')}</p>
      {/* A full page load: whatever broke in this page's state is left behind. */}
      <a className="button button--primary" href="/">
        {t('common.error.home')}
      </a>
    </section>
  );
}

/** Catches what a page throws while rendering; `resetKey` (the path) gives the next page a fresh start. */
export class ErrorBoundary extends Component<{ resetKey: string; children: ReactNode }, { failedAt: string | null }> {
  override state = { failedAt: null as string | null };

  static getDerivedStateFromError(): Partial<{ failedAt: string }> {
    return { failedAt: '' };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    this.setState({ failedAt: this.props.resetKey });
    trackEvent('error_occurred', 'render');
    console.error(error, info.componentStack);
  }

  override componentDidUpdate(previous: { resetKey: string }): void {
    if (this.state.failedAt !== null && previous.resetKey !== this.props.resetKey && this.state.failedAt !== this.props.resetKey) {
      this.setState({ failedAt: null });
    }
  }

  override render(): ReactNode {
    return this.state.failedAt !== null ? <ErrorPage /> : this.props.children;
  }
}
