// @vitest-environment jsdom
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { SCRIPT_NONCE_PLACEHOLDER, bootScriptText, withBootScript } from './boot.js';

const TEMPLATE = `<!doctype html>
<html lang="<!--app-lang-->">
  <head>
    <meta charset="utf-8">
    <link rel="manifest" href="/manifest.webmanifest">
    <!--app-head-->
    <script type="module" crossorigin src="/assets/index-abc.js"></script>
    <style nonce="<!--app-style-nonce-->">body{margin:0}</style>
  </head>
  <body>
    <div id="root"><!--app-html--></div>
    <!--app-data-->
  </body>
</html>`;

test('the entry script and the manifest link leave the head; an inline script at the end of the body, with the nonce placeholder, loads and links them', () => {
  const page = withBootScript(TEMPLATE, 'static-page-data');
  expect(page).not.toContain('src="/assets/index-abc.js"');
  expect(page).not.toContain('<link rel="manifest"');
  expect(page).not.toMatch(/<script type="module"/);
  const script = /<script nonce="([^"]*)">([\s\S]*?)<\/script>\s*<\/body>/.exec(page);
  expect(script?.[1]).toBe(SCRIPT_NONCE_PLACEHOLDER);
  expect(script?.[2]).toContain('"/assets/index-abc.js","static-page-data","/manifest.webmanifest")');
  // After the page's data, which it reads.
  expect(page.indexOf('<!--app-data-->')).toBeLessThan(page.indexOf('<script nonce='));
  // The source template as index.html writes it (tests, development) works the same way.
  expect(withBootScript(TEMPLATE.replace(' crossorigin src="/assets/index-abc.js"', ' src="/src/web/entry-client.tsx"'), 'x')).toContain('"/src/web/entry-client.tsx"');
  expect(() => withBootScript('<html><body></body></html>', 'x')).toThrow(/no module entry script/);
});

/** Runs the inline script as the browser would: its text, in the page's global scope. */
function runBoot(entry = '/assets/index-abc.js', staticPageId = 'static-page-data') {
  window.eval(bootScriptText(entry, staticPageId, '/manifest.webmanifest'));
}
const entryScripts = () => [...document.querySelectorAll('script[type="module"]')].map((script) => script.getAttribute('src'));
const manifests = () => [...document.querySelectorAll('link[rel="manifest"]')].map((link) => link.getAttribute('href'));

beforeEach(() => {
  vi.useFakeTimers();
  document.documentElement.removeAttribute('data-hydrated');
});
afterEach(() => {
  vi.useRealTimers();
  document.body.innerHTML = '';
  for (const link of document.head.querySelectorAll('link[rel="manifest"]')) link.remove();
});

test('a page with the server\'s HTML loads its entry only after a frame has been drawn, once', () => {
  document.body.innerHTML = '<div id="root"><main><h1>Impressum</h1></main></div><script id="static-page-data" type="application/json">{}</script>';
  runBoot();
  expect(entryScripts()).toEqual([]);
  expect(manifests()).toEqual([]);
  vi.advanceTimersByTime(600);
  expect(entryScripts()).toEqual(['/assets/index-abc.js']);
  expect(manifests()).toEqual(['/manifest.webmanifest']);
  vi.advanceTimersByTime(1000);
  expect(entryScripts()).toHaveLength(1);
  expect(manifests()).toHaveLength(1);
});

test('a page with nothing rendered yet loads its entry at once', () => {
  document.body.innerHTML = '<div id="root"></div>';
  runBoot('/src/web/entry-client.tsx');
  expect(entryScripts()).toEqual(['/src/web/entry-client.tsx']);
});

test('where the application runs, a button pressed before hydration is held and pressed again once the app has hydrated', async () => {
  document.body.innerHTML = '<div id="root"><form><button type="submit">Weiter</button></form></div><a id="out" href="#x">Link</a>';
  const submitted = vi.fn((event: Event) => event.preventDefault());
  document.querySelector('form')!.addEventListener('submit', submitted);
  runBoot();
  const button = document.querySelector('button')!;
  button.click();
  expect(submitted).not.toHaveBeenCalled();
  // Hydrated: the press is made again.
  document.documentElement.dataset.hydrated = 'true';
  await vi.waitFor(() => expect(submitted).toHaveBeenCalledTimes(1));
  // From now on presses go through as they are.
  button.click();
  expect(submitted).toHaveBeenCalledTimes(2);
});

test('a page without the application (static page data) holds no press', () => {
  document.body.innerHTML = '<div id="root"><form><button type="submit">Senden</button></form></div><script id="static-page-data" type="application/json">{}</script>';
  const submitted = vi.fn((event: Event) => event.preventDefault());
  document.querySelector('form')!.addEventListener('submit', submitted);
  runBoot();
  document.querySelector('button')!.click();
  expect(submitted).toHaveBeenCalledTimes(1);
});
