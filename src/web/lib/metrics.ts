// First-party counting: page views and the spec's events go to our own server, which keeps daily totals
// only. No cookie, no identifier, nothing stored in the browser, so it runs without consent.
import type { Language } from '../../domain/catalog.js';
import type { MetricEvent } from '../../domain/metrics.js';

function send(body: Record<string, unknown>): void {
  try {
    void fetch('/api/metrics', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      // Survives the navigation a click on a call to action starts.
      keepalive: true,
    }).catch(() => {});
  } catch {
    // Counting never gets in the visitor's way.
  }
}

export function trackPageView(path: string, language: Language): void {
  send({ kind: 'page_view', path, language });
}

export function trackEvent(name: MetricEvent, detail?: string | number): void {
  send({ kind: 'event', name, ...(detail === undefined ? {} : { detail }) });
}
