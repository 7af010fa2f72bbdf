// @vitest-environment jsdom
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { expect, test, vi } from 'vitest';
import { ALL_MESSAGES } from '../../i18n/all-messages.js';
import { I18nProvider } from '../lib/i18n.js';
import { messagesFor } from '../../i18n/messages.js';
import { ErrorBoundary } from './error-boundary.js';

function Boom(): never {
  throw new Error('render failed');
}

test('a page that throws shows "An Error Occurred" with a way home, and the next page renders again', async () => {
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
  const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
  vi.stubGlobal('fetch', vi.fn(() => Promise.resolve(new Response(null, { status: 204 }))));
  const container = document.createElement('div');
  const root = createRoot(container);
  const app = (path: string, child: React.ReactNode) => (
    <I18nProvider language="en" messages={messagesFor(ALL_MESSAGES.en, [])}>
      <ErrorBoundary resetKey={path}>{child}</ErrorBoundary>
    </I18nProvider>
  );
  await act(async () => root.render(app('/broken', <Boom />)));
  expect(container.querySelector('h1')?.textContent).toBe('An Error Occurred');
  expect(container.querySelector('a')?.getAttribute('href')).toBe('/');
  // The error was counted (as a code, nothing else).
  expect(JSON.parse(String((vi.mocked(fetch).mock.calls[0]![1] as RequestInit).body))).toEqual({ kind: 'event', name: 'error_occurred', detail: 'render' });

  await act(async () => root.render(app('/next', <p>fine</p>)));
  expect(container.textContent).toBe('fine');
  await act(async () => root.unmount());
  quiet.mockRestore();
  vi.unstubAllGlobals();
});
