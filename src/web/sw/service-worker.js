// The service worker: the app shell and static assets work offline; API answers, photos, orders and the
// staff area never pass through a cache. scripts/vite/service-worker.ts builds it into dist/client/sw.js,
// filling in the build's version and the files of the shell.
//
// A new version installs and then waits: the page shows 'Aktualisieren' / 'Später', and only the
// visitor's click (the SKIP_WAITING message) lets it take over; the page reloads on the controller change.

const VERSION = '__SW_VERSION__';
const SHELL_FILES = /* __SW_SHELL__ */ [];

const SHELL_CACHE = `shell-${VERSION}`;
const ASSET_CACHE = `assets-${VERSION}`;
const PAGE_CACHE = `pages-${VERSION}`;
const OFFLINE_URL = '/offline';

/** Never cached: answers with personal data or state (orders, photos, payments, staff, API). */
const NEVER_CACHED = ['/api/', '/files/', '/dev/', '/sandbox/', '/admin', '/order', '/success', '/sw.js'];

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(SHELL_CACHE).then((cache) => cache.addAll([...SHELL_FILES, OFFLINE_URL])));
});

self.addEventListener('message', (event) => {
  if (event.data && event.data.type === 'SKIP_WAITING') self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  // Pages cached by an older version name that version's assets: everything old goes.
  const current = new Set([SHELL_CACHE, ASSET_CACHE, PAGE_CACHE]);
  event.waitUntil(caches.keys().then((keys) => Promise.all(keys.filter((key) => !current.has(key)).map((key) => caches.delete(key)))));
});

function offlinePage() {
  return caches.match(OFFLINE_URL, { cacheName: SHELL_CACHE }).then((response) => response || Response.error());
}

/** Hashed build files never change: the cache answers, the network fills it. */
async function cacheFirst(request) {
  const cached = await caches.match(request, { ignoreVary: true });
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok && response.type === 'basic') {
    const copy = response.clone();
    caches.open(ASSET_CACHE).then((cache) => cache.put(request, copy));
  }
  return response;
}

/**
 * Only the language may be in a kept page's address: others carry what a visitor typed or was sent
 * (an order number in /widerruf?order=, an e-mail address in /tracking?email=), which a page cache
 * must not keep.
 */
function keepable(url) {
  return [...url.searchParams.keys()].every((key) => key === 'lang');
}

/** Public pages: always fresh from the network; the last copy (or the offline page) when there is none. */
async function networkFirst(request) {
  try {
    const response = await fetch(request);
    const html = (response.headers.get('content-type') || '').startsWith('text/html');
    if (response.ok && response.type === 'basic' && html && keepable(new URL(request.url))) {
      const copy = response.clone();
      caches.open(PAGE_CACHE).then((cache) => cache.put(request, copy));
    }
    return response;
  } catch {
    const cached = await caches.match(request, { cacheName: PAGE_CACHE, ignoreVary: true });
    return cached || offlinePage();
  }
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (NEVER_CACHED.some((prefix) => url.pathname.startsWith(prefix))) {
    if (request.mode === 'navigate') event.respondWith(fetch(request).catch(() => offlinePage()));
    return;
  }
  // Built assets and the pages' text files (/i18n/…, named by their content's hash): never change.
  if (url.pathname.startsWith('/assets/') || url.pathname.startsWith('/i18n/') || SHELL_FILES.includes(url.pathname)) {
    event.respondWith(cacheFirst(request));
    return;
  }
  if (request.mode === 'navigate') event.respondWith(networkFirst(request));
});
