// The script of a page served without the client application (static-page-data.ts): the little on such a page
// that needs a script, without React. Links are plain links (the next page loads from the server), the FAQ is
// native <details>. React remains what runs every page a visitor fills in or chooses on.
import type { Language } from '../../domain/catalog.js';
import type { MetricEvent } from '../../domain/metrics.js';
import { rememberLanguage, storedLanguage } from '../lib/language-memory.js';
import { trackEvent, trackPageView } from '../lib/metrics.js';
import { SCROLLED_AFTER_PX, STATIC_PAGE_ELEMENT_ID, type StaticPageData } from './static-page-data.js';

const SERVICE_WORKER_URL = '/sw.js';
/** Spec: the update notice disappears after 30 s (as components/update-notice.tsx). */
const UPDATE_NOTICE_MS = 30_000;

/** Shows the page in another language: remembered (storage and cookie), then loaded from the server again. */
function showIn(language: Language) {
  rememberLanguage(language);
  document.querySelector('.app')?.classList.add('app--switching');
  const url = new URL(window.location.href);
  if (url.searchParams.has('lang')) {
    // The address's ?lang= would win over the remembered choice.
    url.searchParams.delete('lang');
    window.location.assign(url.href);
  } else {
    window.location.reload();
  }
}

/** As the app's LanguageRestore: a language chosen earlier in this browser wins over the server's default. */
function restoreLanguage(data: StaticPageData) {
  if (data.languageFromUrl) {
    rememberLanguage(data.language);
    return;
  }
  const stored = storedLanguage();
  if (!stored || stored === data.language) return;
  rememberLanguage(stored);
  // Only when the cookie took: without it the server would answer in the same language again, and again.
  if (document.cookie.split(/;\s*/).includes(`lang=${stored}`)) showIn(stored);
}

function navigation(data: StaticPageData) {
  const bar = document.querySelector<HTMLElement>('.nav');
  if (bar) {
    const onScroll = () => bar.classList.toggle('nav--scrolled', window.scrollY > SCROLLED_AFTER_PX);
    onScroll();
    window.addEventListener('scroll', onScroll, { passive: true });
  }

  const toggle = document.querySelector<HTMLButtonElement>('.nav__toggle');
  const menu = document.getElementById('main-menu');
  const setMenu = (open: boolean) => {
    if (!toggle || !menu) return;
    menu.classList.toggle('nav__menu--open', open);
    toggle.setAttribute('aria-expanded', String(open));
    const label = open ? toggle.dataset.labelClose : toggle.dataset.labelOpen;
    if (label) toggle.setAttribute('aria-label', label);
  };
  toggle?.addEventListener('click', () => setMenu(toggle.getAttribute('aria-expanded') !== 'true'));
  menu?.querySelectorAll('a').forEach((link) => link.addEventListener('click', () => setMenu(false)));

  const container = document.querySelector<HTMLElement>('.lang');
  const button = container?.querySelector<HTMLButtonElement>('.lang__button');
  const list = container?.querySelector<HTMLElement>('.lang__menu');
  if (!container || !button || !list) return;
  const setOpen = (open: boolean) => {
    list.hidden = !open;
    button.setAttribute('aria-expanded', String(open));
  };
  button.addEventListener('click', () => setOpen(list.hidden !== false));
  const onPointer = (event: Event) => {
    if (!list.hidden && !container.contains(event.target as Node)) setOpen(false);
  };
  document.addEventListener('mousedown', onPointer);
  document.addEventListener('touchstart', onPointer);
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && !list.hidden) setOpen(false);
  });
  list.querySelectorAll<HTMLButtonElement>('button[lang]').forEach((option) =>
    option.addEventListener('click', () => {
      setOpen(false);
      setMenu(false);
      const language = option.lang as Language;
      if (language !== data.language) showIn(language);
    }),
  );
}

/** Clicks on links marked with data-event (PageLink's `event`) are counted, as the app counts them. */
function countClicks() {
  document.addEventListener('click', (event) => {
    const link = (event.target as Element | null)?.closest?.<HTMLElement>('[data-event]');
    if (link) trackEvent(link.dataset.event as MetricEvent, link.dataset.eventDetail);
  });
}

/** As components/update-notice.tsx: registers the service worker and offers a waiting new version. */
function serviceWorker(data: StaticPageData) {
  if (!('serviceWorker' in navigator)) return;
  const workers = navigator.serviceWorker;
  let reloading = false;
  workers.addEventListener('controllerchange', () => {
    if (reloading) return;
    reloading = true;
    window.location.reload();
  });
  let notice: HTMLElement | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hide = () => {
    clearTimeout(timer);
    notice?.remove();
    notice = null;
  };
  const offer = (worker: ServiceWorker | null) => {
    // Without a controller this is the first install: nothing old to replace, nothing to offer.
    if (!worker || !workers.controller || notice) return;
    notice = document.createElement('div');
    notice.className = 'update-notice';
    notice.setAttribute('role', 'status');
    notice.dataset.testid = 'update-notice';
    const text = document.createElement('p');
    text.textContent = data.update.text;
    const actions = document.createElement('div');
    actions.className = 'update-notice__actions';
    const later = document.createElement('button');
    later.type = 'button';
    later.className = 'button button--secondary';
    later.textContent = data.update.later;
    later.addEventListener('click', hide);
    const reload = document.createElement('button');
    reload.type = 'button';
    reload.className = 'button button--primary';
    reload.textContent = data.update.reload;
    reload.addEventListener('click', () => worker.postMessage({ type: 'SKIP_WAITING' }));
    actions.append(later, reload);
    notice.append(text, actions);
    (document.querySelector('.app') ?? document.body).append(notice);
    timer = setTimeout(hide, UPDATE_NOTICE_MS);
  };
  workers
    .register(SERVICE_WORKER_URL)
    .then((registration) => {
      offer(registration.waiting);
      registration.addEventListener('updatefound', () => {
        const installing = registration.installing;
        installing?.addEventListener('statechange', () => {
          if (installing.state === 'installed') offer(installing);
        });
      });
    })
    .catch(() => {
      // No worker (private mode, blocked): the site works as before, just not offline.
    });
}

export function start() {
  const element = document.getElementById(STATIC_PAGE_ELEMENT_ID);
  if (!element?.textContent) return;
  const data = JSON.parse(element.textContent) as StaticPageData;
  restoreLanguage(data);
  navigation(data);
  countClicks();
  serviceWorker(data);
  trackPageView(window.location.pathname, data.language);
  // What the app sets after hydrating; browser tests wait for it before they click.
  document.documentElement.dataset.hydrated = 'true';
}
