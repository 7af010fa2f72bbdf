// What a visitor (or a search engine, or curl) gets from every public route without JavaScript.
import { stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { LANGUAGES } from '../../../domain/catalog.js';
import { ALL_MESSAGES } from '../../../i18n/all-messages.js';
import { PUBLIC_PAGES } from '../../../web/entry-server.js';
import type { DatabaseHandle } from '../../db/client.js';
import { PROJECT_ROOT } from '../../paths.js';
import { buildTestApp, type TestApp } from '../../test/app.js';
import { testDatabases } from '../../test/databases.js';

const GUIDES = [
  ['/bewerbungsfotos-erstellen', 'Bewerbungsfotos erstellen', 'Create application photos', 'Crear fotos'],
  ['/linkedin-profilbild-erstellen', 'LinkedIn-Profilbild', 'LinkedIn profile picture', 'LinkedIn'],
  ['/ki-bewerbungsfotos-test', 'KI-Bewerbungsfotos im Test', 'AI application photos', 'IA'],
] as const;

/** The rendered page without the inlined stylesheet and the embedded page data (which holds the raw texts of the catalogues). */
function rendered(html: string): string {
  return html.replace(/<style[^>]*>[\s\S]*?<\/style>/g, '').split(/<script id="(?:app-data|static-page-data)"/)[0]!;
}

function metaContent(html: string, name: string): string | null {
  return new RegExp(`<meta name="${name}" content="([^"]*)">`).exec(html)?.[1] ?? null;
}

/** Scripts in the HTML that would run: only the page data (JSON) and scripts with this answer's nonce may be inline. */
function unsafeInlineScripts(html: string): string[] {
  return [...html.matchAll(/<script(?![^>]*type="application\/(?:ld\+)?json")(?![^>]*nonce=)[^>]*>([^<]*)<\/script>/g)].filter((m) => m[1]!.trim() !== '').map((m) => m[0].slice(0, 60));
}

describe('the public pages, server rendered', () => {
  let db: DatabaseHandle;
  let t: TestApp;
  beforeAll(async () => {
    db = await testDatabases()[0]!.open();
    // No before/after pairs here (the shop's own are checked below).
    const empty = path.join(os.tmpdir(), `no-examples-${process.pid}.json`);
    await writeFile(empty, JSON.stringify({ pairs: [] }));
    t = await buildTestApp(db, { EXAMPLES_FILE: empty });
  });
  afterAll(async () => {
    await t.close();
    await db.close();
  });

  test('every public route in every language has its content, title, description, canonical and hreflang links', async () => {
    for (const page of PUBLIC_PAGES) {
      for (const language of LANGUAGES) {
        const url = language === 'de' ? page : `${page}?lang=${language}`;
        const response = await t.app.inject({ method: 'GET', url });
        expect(response.statusCode, url).toBe(200);
        const html = response.body;
        expect(html, url).toContain(`<html lang="${language}">`);
        const title = /<title>([^<]+)<\/title>/.exec(html)?.[1] ?? '';
        expect(title.length, `${url} title`).toBeGreaterThan(10);
        expect(title, url).toContain('Bewerbungsfoto Studio');
        const description = metaContent(html, 'description') ?? '';
        expect(description.length, `${url} description`).toBeGreaterThan(40);
        expect(metaContent(html, 'robots'), url).toBeNull();
        expect(html, url).toContain(`<link rel="canonical" href="http://shop.test${url}">`);
        for (const alternate of LANGUAGES) {
          expect(html, url).toContain(`<link rel="alternate" hreflang="${alternate}" href="http://shop.test${page}${alternate === 'de' ? '' : `?lang=${alternate}`}">`);
        }
        expect(html, url).toContain(`<link rel="alternate" hreflang="x-default" href="http://shop.test${page}">`);
        // One h1 with real text, no untranslated key, no page waiting behind a fallback.
        expect(html.match(/<h1[ >]/g)?.length, url).toBe(1);
        expect(html, url).not.toMatch(/>(common|home|guides|legal|catalog)\.[a-zA-Z.]+</);
        expect(html, url).not.toContain('<!--$?-->');
        expect(unsafeInlineScripts(html), url).toEqual([]);
      }
    }
  });

  test('the guide pages carry their sections, price cards and links to the wizard', async () => {
    for (const [url, german, english] of GUIDES) {
      const html = (await t.app.inject({ method: 'GET', url })).body;
      expect(html).toContain(german);
      // Price cards with the catalogue's prices, and every call to action leading to the wizard.
      expect(html).toContain('data-testid="price-card-pro"');
      expect(html.replaceAll('\u00a0', ' ')).toContain('14,90 €');
      expect(html.match(/href="\/order\/gender"/g)!.length).toBeGreaterThanOrEqual(5);
      // No placeholder left unfilled.
      expect(rendered(html)).not.toMatch(/\{[a-zA-Z]+\}/);
      expect((await t.app.inject({ method: 'GET', url: `${url}?lang=en` })).body).toContain(english);
    }
    const faq = (await t.app.inject({ method: 'GET', url: '/bewerbungsfotos-erstellen' })).body;
    expect(faq.match(/<details class="faq__item">/g)!.length).toBeGreaterThanOrEqual(5);
    const comparison = (await t.app.inject({ method: 'GET', url: '/ki-bewerbungsfotos-test' })).body;
    expect(comparison).toContain('<table class="comparison__table">');
    expect(comparison).toContain('<th scope="row">');
    // The home page links the guides; the footer links them everywhere.
    const home = (await t.app.inject({ method: 'GET', url: '/' })).body;
    const contact = (await t.app.inject({ method: 'GET', url: '/kontakt' })).body;
    for (const [url] of GUIDES) {
      expect(home).toContain(`href="${url}"`);
      expect(contact).toContain(`href="${url}"`);
    }
  });

  test('a page embeds only the texts it needs; home, guides, legal texts and the withdrawal form come without the client application', async () => {
    const body = async (url: string) => (await t.app.inject({ method: 'GET', url })).body;
    const data = async (url: string) => JSON.parse(/<script id="app-data" type="application\/json">([\s\S]*?)<\/script>/.exec(await body(url))![1]!);
    // The texts themselves are in files the page names (cached for every page), not in the HTML.
    expect(Object.keys((await data('/team')).texts.pages)).toEqual(['team']);
    expect(Object.keys((await data('/kontakt')).texts.pages)).toEqual([]);
    expect(await data('/kontakt')).not.toHaveProperty('messages');
    expect(await body('/kontakt')).not.toContain('Fehler beim Laden der Bestelldaten');
    // The files: the core catalogues of the page's language and each page namespace, cached for good.
    const english = (await data('/team?lang=en')).texts;
    const core = await t.app.inject({ method: 'GET', url: english.core });
    expect(core.statusCode).toBe(200);
    expect(core.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(core.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(core.json().orderStatus.loadError).toBe(ALL_MESSAGES.en.orderStatus.loadError);
    expect(core.json()).not.toHaveProperty('team');
    expect(core.json()).not.toHaveProperty('mail');
    expect((await t.app.inject({ method: 'GET', url: english.pages.team })).json()).toEqual(ALL_MESSAGES.en.team);
    expect(english.core).not.toBe((await data('/team')).texts.core);
    expect((await t.app.inject({ method: 'GET', url: '/i18n/en.000000000000.json' })).statusCode).toBe(404);
    // Nothing to fill in or choose there: a few settings for their small script instead of the app's data.
    for (const url of ['/', '/impressum', '/widerruf', '/linkedin-profilbild-erstellen?lang=en']) {
      const html = await body(url);
      expect(html).not.toContain('id="app-data"');
      const settings = JSON.parse(/<script id="static-page-data" type="application\/json">([\s\S]*?)<\/script>/.exec(html)![1]!);
      expect(settings).toMatchObject(url.endsWith('?lang=en') ? { language: 'en', languageFromUrl: true } : { language: 'de', languageFromUrl: false });
    }
    expect((await body('/kontakt')).includes('id="static-page-data"')).toBe(false);
  });

  test('without configured examples or third-party services there is no before/after link, banner or cookie link', async () => {
    const home = rendered((await t.app.inject({ method: 'GET', url: '/' })).body);
    expect(home).not.toContain('before-after');
    expect(home).not.toContain('cookie-settings');
    expect(home).not.toContain('Vorher/Nachher');
    const csp = String((await t.app.inject({ method: 'GET', url: '/' })).headers['content-security-policy']);
    expect(csp).toContain("script-src 'self' 'nonce-");
    expect(csp).toContain("frame-src 'none'");
    // The privacy policy says what is true: no third-party services, counting on our own server.
    const privacy = (await t.app.inject({ method: 'GET', url: '/datenschutz' })).body;
    expect(privacy).toContain('keine Analyse-, Werbe- oder Tracking-Cookies und keine Chat-Widgets');
    expect(privacy).toContain('Tagessummen');
  });

  test('the offline page runs nothing; manifest and sitemap describe the shop', async () => {
    const offline = await t.app.inject({ method: 'GET', url: '/offline' });
    expect(offline.statusCode).toBe(200);
    expect(offline.body).toContain('Keine Internetverbindung');
    expect(offline.body).toContain('<meta name="robots" content="noindex">');
    expect(offline.body).not.toMatch(/<script(?![^>]*application\/ld\+json)/);
    const manifest = await t.app.inject({ method: 'GET', url: '/manifest.webmanifest' });
    expect(manifest.headers['content-type']).toBe('application/manifest+json; charset=utf-8');
    expect(manifest.json()).toMatchObject({ name: 'Bewerbungsfoto Studio', start_url: '/', display: 'standalone' });
    expect(manifest.json().icons.map((i: { sizes: string }) => i.sizes)).toEqual(['192x192', '512x512', '512x512']);
    const sitemap = (await t.app.inject({ method: 'GET', url: '/sitemap.xml' })).body;
    for (const [url] of GUIDES) expect(sitemap).toContain(`<loc>http://shop.test${url}?lang=es</loc>`);
    expect(sitemap).not.toContain('/offline');
    const robots = (await t.app.inject({ method: 'GET', url: '/robots.txt' })).body;
    expect(robots).toContain('Disallow: /offline');
    // A team's pages (its link, the buyer's page, a member's page) are nobody's to index; the order form /team is.
    expect(robots.split('\n')).toContain('Disallow: /team/');
  });

  test('pages and API answers are compressed for browsers that accept it', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/', headers: { 'accept-encoding': 'br, gzip' } });
    expect(page.headers['content-encoding']).toBe('br');
    const json = await t.app.inject({ method: 'GET', url: '/api/catalog', headers: { 'accept-encoding': 'gzip' } });
    expect(json.headers['content-encoding']).toBe('gzip');
    const plain = await t.app.inject({ method: 'GET', url: '/' });
    expect(plain.headers['content-encoding']).toBeUndefined();
  });
});

describe('with examples, third-party services, profiles and sister sites configured', () => {
  let db: DatabaseHandle;
  let t: TestApp;
  beforeAll(async () => {
    db = await testDatabases()[0]!.open();
    const manifest = {
      pairs: [
        {
          id: 'collins',
          before: { src: '/examples/collins-before.webp', width: 480, height: 600 },
          after: { src: 'https://cdn.example.net/collins-after.webp', width: 480, height: 600 },
          style: 'professional',
          location: 'studio',
          credit: 'NASA, gemeinfrei',
        },
      ],
    };
    const file = path.join(os.tmpdir(), `examples-${process.pid}.json`);
    await writeFile(file, JSON.stringify(manifest));
    t = await buildTestApp(db, {
      EXAMPLES_FILE: file,
      ANALYTICS_SCRIPT_URL: 'https://stats.example.org/tag.js',
      ANALYTICS_NAME: 'Beispiel Analytics GmbH, Berlin',
      CHAT_SCRIPT_URL: 'https://chat.example.com/widget.js',
      SOCIAL_LINKS: 'linkedin=https://www.linkedin.com/company/beispiel,instagram=https://instagram.com/beispiel',
      SISTER_SITES: 'en=https://ai-headshots.example,es=https://fotos-ia.example',
    });
  });
  afterAll(async () => {
    await t.close();
    await db.close();
  });

  test('the home page shows the pairs with sizes and credit, and links them from the navigation and footer', async () => {
    const html = (await t.app.inject({ method: 'GET', url: '/' })).body;
    expect(html).toContain('id="before-after"');
    expect(html).toContain('src="/examples/collins-before.webp" width="480" height="600"');
    expect(html).toContain('alt="Nachher: Bewerbungsfoto im Stil Professionell mit Hintergrund Studio"');
    expect(html).toContain('Ausgangsfoto: NASA, gemeinfrei');
    expect(html.match(/href="\/#before-after"/g)!.length).toBe(2);
    // The first guide shows them too.
    expect((await t.app.inject({ method: 'GET', url: '/bewerbungsfotos-erstellen' })).body).toContain('data-testid="before-after-pair"');
  });

  test('with a service that needs consent every page runs the client application (its banner), with only the texts it needs', async () => {
    const namespaces = async (url: string) => {
      const html = (await t.app.inject({ method: 'GET', url })).body;
      expect(html).not.toContain('id="static-page-data"');
      return Object.keys(JSON.parse(/<script id="app-data" type="application\/json">([\s\S]*?)<\/script>/.exec(html)![1]!).texts.pages);
    };
    expect(await namespaces('/')).not.toContain('legal');
    expect(await namespaces('/')).not.toContain('guides');
    expect(await namespaces('/impressum')).toContain('legal');
    expect(await namespaces('/linkedin-profilbild-erstellen')).toContain('guides');
    expect(await namespaces('/linkedin-profilbild-erstellen')).not.toContain('legal');
  });

  test('the CSP allows exactly the configured origins; the privacy policy names the services', async () => {
    const csp = String((await t.app.inject({ method: 'GET', url: '/' })).headers['content-security-policy']);
    expect(csp).toMatch(/script-src 'self' https:\/\/stats\.example\.org https:\/\/chat\.example\.com 'nonce-/);
    expect(csp).toContain('img-src');
    expect(csp).toContain('https://cdn.example.net');
    expect(csp).toContain('frame-src https://stats.example.org https://chat.example.com');
    const privacy = (await t.app.inject({ method: 'GET', url: '/datenschutz' })).body;
    expect(privacy).toContain('Reichweitenanalyse: Beispiel Analytics GmbH, Berlin.');
    expect(privacy).toContain('Chat: chat.example.com.');
    expect(privacy).toContain('nur mit Ihrer Einwilligung');
    expect(rendered(privacy)).not.toContain('keine Chat-Widgets');
  });

  test('the footer has the profiles, the sister sites in their own language and the cookie settings link', async () => {
    const html = (await t.app.inject({ method: 'GET', url: '/?lang=es' })).body;
    expect(html).toContain('<a href="https://www.linkedin.com/company/beispiel" rel="noopener me">LinkedIn</a>');
    expect(html).toContain('<a href="https://ai-headshots.example" hrefLang="en" lang="en">English</a>');
    expect(html).toContain('<a href="https://fotos-ia.example" hrefLang="es" lang="es">Español</a>');
    expect(html).toContain('Configuración de cookies');
    // Organisation data names the profiles.
    expect(html).toContain('"sameAs":["https://www.linkedin.com/company/beispiel","https://instagram.com/beispiel"]');
  });
});

describe('a page that fails to render', () => {
  let db: DatabaseHandle;
  let t: TestApp;
  let broken = false;
  beforeAll(async () => {
    db = await testDatabases()[0]!.open();
    t = await buildTestApp(db, {}, {
      now: () => {
        if (broken) throw new Error('clock broke');
        return new Date('2026-11-23T10:00:00Z');
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await db.close();
  });

  test('answers the generic error page in the visitor\'s language, with no details and a way home', async () => {
    broken = true;
    const response = await t.app.inject({ method: 'GET', url: '/?lang=en' });
    broken = false;
    expect(response.statusCode).toBe(500);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.body).toContain('<h1 id="error-title">An Error Occurred</h1>');
    expect(response.body).toContain('<a class="button button--primary" href="/">Go to the home page</a>');
    expect(response.body).not.toContain('clock broke');
    expect(response.body).not.toMatch(/<script type="module"/);
    expect((await t.app.inject({ method: 'GET', url: '/' })).statusCode).toBe(200);
  });
});

describe('the shop\'s own examples', () => {
  test('made by the studio pipeline from the committed public-domain portrait: every file exists at its stated size', async () => {
    const db = await testDatabases()[0]!.open();
    const t = await buildTestApp(db);
    try {
      expect(t.config.examples.length).toBeGreaterThanOrEqual(3);
      for (const pair of t.config.examples) {
        for (const image of [pair.before, pair.after]) {
          const meta = await sharp(path.join(PROJECT_ROOT, 'public', image.src)).metadata();
          expect({ src: image.src, width: meta.width, height: meta.height }).toEqual({ src: image.src, width: image.width, height: image.height });
          // Phones get the narrower variant of the same picture: same proportions, fewer bytes.
          expect(image.small).toBeDefined();
          const small = await sharp(path.join(PROJECT_ROOT, 'public', image.small!.src)).metadata();
          expect(small.width).toBe(image.small!.width);
          expect(small.width! / small.height!).toBeCloseTo(image.width / image.height, 2);
          expect((await stat(path.join(PROJECT_ROOT, 'public', image.small!.src))).size).toBeLessThan((await stat(path.join(PROJECT_ROOT, 'public', image.src))).size);
        }
        expect(pair.credit).toContain('NASA');
      }
      const home = (await t.app.inject({ method: 'GET', url: '/' })).body;
      expect(home.match(/data-testid="before-after-pair"/g)).toHaveLength(t.config.examples.length);
      const first = t.config.examples[0]!.after;
      expect(home).toContain(`srcSet="${first.small!.src} 360w, ${first.src} 480w" sizes="(min-width: 720px) 200px, 46vw"`);
      expect(home).toContain('href="/#before-after"');
    } finally {
      await t.close();
      await db.close();
    }
  });
});
