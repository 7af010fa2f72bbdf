// The page's first script, written into the HTML itself at the end of the body (the server puts
// `(${boot})(entry, staticPageId, manifest)` there, with the answer's CSP nonce): nothing is fetched before
// the first paint but the document. A linked first script was one more request on the way to the first paint
// (about a round trip on a slow phone's network, even though the paint does not wait for it to run), and so
// was the web app manifest, which the browser may fetch as soon as it sees its link: it is linked after the
// paint too (it matters only to install the shop as an app).
//
// It runs inline, so it is self-contained: no imports, no closures over module variables, nothing a
// bundler would rename. It is tested as written (boot.test.ts) and in the browser (e2e).

/**
 * Loads `entry` (the browser entry, a module) once the server's HTML is on screen: when the browser reports
 * the first contentful paint. A page opened in the background paints nothing until shown, and a browser
 * without paint timing reports nothing: the entry then loads after a frame, and at the latest after 500 ms.
 * On pages the application runs on, a button pressed before React has hydrated them is held and pressed
 * again once it has.
 */
export function boot(entry: string, staticPageId: string, manifest: string | null): void {
  const MAX_WAIT_MS = 500;
  const doc = document;
  const isStaticPage = doc.getElementById(staticPageId) !== null;

  // A button pressed before React has hydrated the page (its script still loading: a wizard step opened from
  // a page without the app, on a slow phone) would do nothing, or send its form without the app. The last
  // such press is held and pressed again once the app runs (React hydrates onto the same elements); links
  // work without the app and are left alone.
  if (!isStaticPage) {
    let pressed: HTMLElement | null = null;
    const hold = (event: MouseEvent) => {
      const button = (event.target as Element | null)?.closest?.('button');
      if (!button || !doc.getElementById('root')?.contains(button)) return;
      event.preventDefault();
      event.stopPropagation();
      pressed = button;
    };
    doc.addEventListener('click', hold, true);
    const html = doc.documentElement;
    const observer = new MutationObserver(() => {
      if (html.dataset.hydrated !== 'true') return;
      observer.disconnect();
      doc.removeEventListener('click', hold, true);
      if (pressed?.isConnected) pressed.click();
    });
    observer.observe(html, { attributes: true, attributeFilter: ['data-hydrated'] });
  }

  let started = false;
  const load = () => {
    if (started) return;
    started = true;
    const script = doc.createElement('script');
    script.type = 'module';
    script.src = entry;
    doc.body.appendChild(script);
    if (manifest) {
      const link = doc.createElement('link');
      link.rel = 'manifest';
      link.href = manifest;
      doc.head.appendChild(link);
    }
  };

  const painted = () => performance.getEntriesByType('paint').some((entry) => entry.name === 'first-contentful-paint');
  // Nothing to show first (a page rendered by the browser alone): at once.
  if (!doc.getElementById('root')?.hasChildNodes() || painted()) return load();
  if (doc.visibilityState === 'hidden' || typeof PerformanceObserver === 'undefined' || !PerformanceObserver.supportedEntryTypes?.includes('paint')) {
    requestAnimationFrame(() => setTimeout(load, 0));
    setTimeout(load, MAX_WAIT_MS);
    return;
  }
  const observer = new PerformanceObserver(() => {
    if (!painted()) return;
    observer.disconnect();
    load();
  });
  observer.observe({ type: 'paint' });
  setTimeout(() => {
    observer.disconnect();
    load();
  }, MAX_WAIT_MS);
}

/** The inline script's text for a page template: `boot` called with the entry's and the manifest's address. */
export function bootScriptText(entry: string, staticPageId: string, manifest: string | null = null): string {
  // Indentation dropped (line ends kept, so no statement runs into the next): about 100 bytes less per page.
  const source = boot.toString().replace(/\n[ \t]+/g, '\n');
  return `(${source})(${JSON.stringify(entry)},${JSON.stringify(staticPageId)},${JSON.stringify(manifest)})`.replace(/<\/script/gi, '<\\/script');
}

/** Where the server writes each answer's CSP script nonce into the inline first script. */
export const SCRIPT_NONCE_PLACEHOLDER = '<!--app-script-nonce-->';

const ENTRY_SCRIPT = /<script type="module"(?: crossorigin)? src="([^"]+)"><\/script>\s*/;
const MANIFEST_LINK = /<link rel="manifest" href="([^"]+)">\s*/;

/**
 * The page template with its entry script (as the build or index.html writes it: a module script in the
 * head) and its manifest link replaced by the inline first script at the end of the body, which loads the
 * entry and links the manifest after the first paint. The script carries SCRIPT_NONCE_PLACEHOLDER for the
 * server to fill in per answer.
 */
export function withBootScript(template: string, staticPageId: string): string {
  const found = ENTRY_SCRIPT.exec(template);
  if (!found) throw new Error('withBootScript: the template has no module entry script');
  const manifest = MANIFEST_LINK.exec(template)?.[1] ?? null;
  const withoutEntry = template.replace(ENTRY_SCRIPT, '').replace(MANIFEST_LINK, '');
  const end = withoutEntry.lastIndexOf('</body>');
  if (end < 0) throw new Error('withBootScript: the template has no </body>');
  const script = `<script nonce="${SCRIPT_NONCE_PLACEHOLDER}">${bootScriptText(found[1]!, staticPageId, manifest)}</script>\n  `;
  return withoutEntry.slice(0, end) + script + withoutEntry.slice(end);
}
