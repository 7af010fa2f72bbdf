// The browser entry: styles at once, the app right after the first paint. The server's HTML is complete
// and readable without scripts, so the page paints without waiting for React to download; hydration then
// makes it interactive (links work as plain links until then).
import './styles/global.css';
import './styles/legal.css';
// Last: the pages sent without the application leave it out (app-css.ts).
import './styles/app.css';

import { STATIC_PAGE_ELEMENT_ID } from './static-page-data.js';

/**
 * A button pressed before React has hydrated the page (its script still loading: a wizard step opened from a
 * page without the app, on a slow phone) would do nothing. The last such press is held and pressed again once
 * the app runs (React hydrates onto the same elements); links work without the app and are left alone.
 */
function holdEarlyPresses() {
  let pressed: HTMLElement | null = null;
  const hold = (event: MouseEvent) => {
    const button = (event.target as Element | null)?.closest?.('button');
    if (!button || !document.getElementById('root')?.contains(button)) return;
    event.preventDefault();
    event.stopPropagation();
    pressed = button;
  };
  document.addEventListener('click', hold, true);
  const html = document.documentElement;
  const observer = new MutationObserver(() => {
    if (html.dataset.hydrated !== 'true') return;
    observer.disconnect();
    document.removeEventListener('click', hold, true);
    if (pressed?.isConnected) pressed.click();
  });
  observer.observe(html, { attributes: true, attributeFilter: ['data-hydrated'] });
}

function load() {
  // A page served without the client application (static-page-data.ts) gets its small script instead.
  if (document.getElementById(STATIC_PAGE_ELEMENT_ID)) void import('./static-page.js').then((page) => page.start());
  // React first, then (after the browser had a turn) the app: two shorter tasks instead of one long one.
  else
    void import('./react-runtime.js')
      .then(() => new Promise((resolve) => setTimeout(resolve, 0)))
      .then(() => import('./client-start.js'))
      .then((app) => app.start());
}

if (!document.getElementById(STATIC_PAGE_ELEMENT_ID)) holdEarlyPresses();

/**
 * Runs `then` once the server's HTML is on screen: when the browser reports the first contentful paint (the
 * frame shown, not only drawn), so the app's files are not fetched while that frame is still on its way. A page
 * opened in the background paints nothing until shown, and a browser without paint timing reports nothing: the
 * app then loads after a frame, and at the latest after MAX_WAIT_MS.
 */
const MAX_WAIT_MS = 500;
function afterFirstPaint(then: () => void) {
  let done = false;
  const run = () => {
    if (done) return;
    done = true;
    then();
  };
  const painted = () => performance.getEntriesByType('paint').some((entry) => entry.name === 'first-contentful-paint');
  if (painted()) return run();
  if (document.visibilityState === 'hidden' || typeof PerformanceObserver === 'undefined' || !PerformanceObserver.supportedEntryTypes?.includes('paint')) {
    requestAnimationFrame(() => setTimeout(run, 0));
    return;
  }
  const observer = new PerformanceObserver(() => {
    if (!painted()) return;
    observer.disconnect();
    run();
  });
  observer.observe({ type: 'paint' });
  setTimeout(() => {
    observer.disconnect();
    run();
  }, MAX_WAIT_MS);
}

if (document.getElementById('root')?.hasChildNodes()) {
  afterFirstPaint(load);
} else {
  load();
}
