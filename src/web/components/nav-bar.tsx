import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { Link } from './link.js';
import { LANGUAGES, type Language } from '../../domain/catalog.js';
import { useAppData } from '../app-data.js';
import { useI18n } from '../lib/i18n.js';
import { linkTarget, type LinkKey } from '../routes.js';
import { SCROLLED_AFTER_PX } from '../shell/static-page-data.js';

const ITEMS: { key: LinkKey; label: string }[] = [
  { key: 'home', label: 'common.nav.home' },
  { key: 'tracking', label: 'common.nav.tracking' },
  { key: 'beforeAfter', label: 'common.nav.beforeAfter' },
];

export function NavBar() {
  const { t, language, setLanguage, switching } = useI18n();
  const { site, examples } = useAppData();
  const location = useLocation();
  const [scrolled, setScrolled] = useState(false);
  const [menuOpen, setMenuOpen] = useState(false);
  const [languageOpen, setLanguageOpen] = useState(false);
  const languageRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const onScroll = () => setScrolled(window.scrollY > SCROLLED_AFTER_PX);
    onScroll();
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);

  useEffect(() => {
    if (!languageOpen) return;
    const onPointer = (event: MouseEvent | TouchEvent) => {
      if (languageRef.current && !languageRef.current.contains(event.target as Node)) setLanguageOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setLanguageOpen(false);
    };
    document.addEventListener('mousedown', onPointer);
    document.addEventListener('touchstart', onPointer);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', onPointer);
      document.removeEventListener('touchstart', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, [languageOpen]);

  const choose = async (next: Language) => {
    setLanguageOpen(false);
    setMenuOpen(false);
    if (next !== language) await setLanguage(next);
  };

  // The before/after section exists only with configured examples.
  const items = ITEMS.filter((item) => item.key !== 'beforeAfter' || examples.length > 0)
    .map((item) => ({ ...item, href: linkTarget(item.key) }))
    .filter((item): item is { key: LinkKey; label: string; href: string } => item.href !== null);

  return (
    <header className={`nav${scrolled ? ' nav--scrolled' : ''}`}>
      <div className="nav__inner">
        <Link to="/" className="nav__logo">
          {/* The mark (public/favicon.svg) is drawn in place, not fetched: a request before the first paint
              delays it on a slow connection. Hidden from assistive technology, so the link's name is exactly
              its visible text (WCAG 2.5.3). The letters are outlines (Liberation Sans Bold), not text: text would
              cost a font lookup of its own before the first layout and look different on every system. */}
          <svg className="nav__logo-mark" viewBox="0 0 64 64" width="36" height="36" aria-hidden="true" focusable="false">
            <rect width="64" height="64" rx="14" fill="#14213d" />
            <path fill="#fca311" d="M32.3 36.9Q32.3 38.3 31.7 39.2Q31.2 40.2 30.2 40.8Q29.3 41.4 28 41.7Q26.8 42 25.4 42L16.4 42L16.4 24.1L24.6 24.1Q26.2 24.1 27.4 24.4Q28.7 24.7 29.5 25.2Q30.4 25.8 30.8 26.6Q31.2 27.5 31.2 28.6Q31.2 30.1 30.4 31.2Q29.5 32.2 27.8 32.6Q30 32.8 31.1 34Q32.3 35.1 32.3 36.9M27.5 29.1Q27.5 27.9 26.7 27.4Q25.9 26.9 24.4 26.9L20.2 26.9L20.2 31.3L24.4 31.3Q26 31.3 26.8 30.8Q27.5 30.2 27.5 29.1M28.5 36.6Q28.5 35.9 28.2 35.4Q28 34.9 27.5 34.6Q27 34.3 26.3 34.2Q25.7 34.1 24.9 34.1L20.2 34.1L20.2 39.2L25 39.2Q25.8 39.2 26.4 39.1Q27 39 27.5 38.7Q28 38.4 28.2 37.9Q28.5 37.4 28.5 36.6M48.4 27L38.9 27L38.9 32.5L48.1 32.5L48.1 35.4L38.9 35.4L38.9 42L35.2 42L35.2 24.1L48.4 24.1" />
          </svg>
          <span className="nav__logo-text">{site.name}</span>
          <span className="visually-hidden">{t('common.nav.homeSuffix')}</span>
        </Link>
        <button
          type="button"
          className="nav__toggle"
          aria-expanded={menuOpen}
          aria-controls="main-menu"
          aria-label={menuOpen ? t('common.nav.closeMenu') : t('common.nav.openMenu')}
          data-label-open={t('common.nav.openMenu')}
          data-label-close={t('common.nav.closeMenu')}
          onClick={() => setMenuOpen((open) => !open)}
        >
          <span aria-hidden="true" className="nav__toggle-bars" />
        </button>
        <nav id="main-menu" className={`nav__menu${menuOpen ? ' nav__menu--open' : ''}`} aria-label={t('common.nav.mainNavigation')}>
          <ul className="nav__items">
            {items.map((item) => {
              const active = item.href === location.pathname;
              return (
                <li key={item.key}>
                  <Link
                    to={item.href}
                    className={`nav__item${active ? ' nav__item--active' : ''}`}
                    aria-current={active ? 'page' : undefined}
                    onClick={() => setMenuOpen(false)}
                  >
                    {t(item.label)}
                  </Link>
                </li>
              );
            })}
          </ul>
          <div className="lang" ref={languageRef}>
            <button
              type="button"
              className="lang__button"
              aria-haspopup="true"
              aria-expanded={languageOpen}
              // The name starts with what is visible (WCAG 2.5.3 label in name): "Sprache wählen: DE".
              aria-label={`${t('common.nav.language')}: ${language.toUpperCase()}`}
              disabled={switching}
              onClick={() => setLanguageOpen((open) => !open)}
              data-testid="language-button"
            >
              {language.toUpperCase()}
              <span aria-hidden="true" className="lang__caret" />
            </button>
            {/* Always in the page, hidden while closed: a page served without React (static-page.ts) opens it too. */}
            <ul className="lang__menu" hidden={!languageOpen} data-testid="language-menu">
              {LANGUAGES.map((code) => (
                <li key={code}>
                  <button
                    type="button"
                    className={`lang__option${code === language ? ' lang__option--active' : ''}`}
                    lang={code}
                    aria-current={code === language ? 'true' : undefined}
                    disabled={switching}
                    onClick={() => void choose(code)}
                  >
                    <span className="lang__code">{code.toUpperCase()}</span> {t(`common.languages.${code}`)}
                  </button>
                </li>
              ))}
            </ul>
          </div>
        </nav>
      </div>
    </header>
  );
}
