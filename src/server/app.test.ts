import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { DatabaseHandle } from './db/client.js';
import type { ModelThread } from '../studio/inference/client.js';
import { testDatabases } from './test/databases.js';
import { buildTestApp, type TestApp } from './test/app.js';

const CAMPAIGN = {
  CAMPAIGN_PERCENT: '20',
  CAMPAIGN_PACKAGES: 'pro,premium',
  CAMPAIGN_STARTS_AT: '2026-11-01T00:00:00+01:00',
  CAMPAIGN_ENDS_AT: '2027-01-01T00:00:00+01:00',
};
const DURING = new Date('2026-11-22T10:00:00Z');

describe.each(testDatabases())('app on $name', (testDb) => {
  let db: DatabaseHandle;
  let t: TestApp;
  beforeAll(async () => {
    db = await testDb.open();
    t = await buildTestApp(db, CAMPAIGN, { now: () => DURING });
  });
  afterAll(async () => {
    await t.close();
    await db.close();
  });

  test('health reports database and storage', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok', database: 'ok', storage: 'ok' });
    expect(response.headers['cache-control']).toBe('no-store');
  });

  test('catalog has list prices, campaign prices and the campaign with its end', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/catalog' });
    expect(response.statusCode).toBe(200);
    const catalog = response.json();
    const prices = Object.fromEntries(catalog.packages.map((p: { key: string; listPriceCents: number; priceCents: number }) => [p.key, [p.listPriceCents, p.priceCents]]));
    expect(prices).toEqual({ basic: [1490, 1490], pro: [3490, 2792], premium: [6990, 5592] });
    expect(catalog.campaign).toMatchObject({ percent: 20, packages: ['pro', 'premium'], endsAt: '2026-12-31T23:00:00.000Z' });
    expect(catalog.extras).toEqual([
      { key: 'extra_variants', priceCents: 999, addsImages: 10, deliveryHours: null },
      { key: 'express_delivery', priceCents: 1499, addsImages: 0, deliveryHours: 6 },
    ]);
    expect(catalog.packages.find((p: { key: string }) => p.key === 'premium').offeredExtras).toEqual(['extra_variants']);
    expect(catalog.fromPriceCents).toBe(1490);
  });

  test('security headers are set on every answer', async () => {
    for (const url of ['/', '/api/catalog', '/api/nope']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(response.headers['content-security-policy']).toContain("script-src 'self'");
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      // Not production: no HSTS on plain-HTTP development machines.
      expect(response.headers['strict-transport-security']).toBeUndefined();
    }
  });

  test('unknown API routes answer a stable JSON error code with the request id', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/nope' });
    expect(response.statusCode).toBe(404);
    const body = response.json();
    expect(body.error.code).toBe('notFound');
    expect(body.error.requestId).toBe(response.headers['x-request-id']);
    const post = await t.app.inject({ method: 'POST', url: '/api/catalog', payload: {} });
    expect(post.statusCode).toBe(404);
  });

  test('malformed JSON is a 400 with a code, not a stack trace', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/catalog', headers: { 'content-type': 'application/json' }, payload: '{nope' });
    expect([400, 404]).toContain(response.statusCode);
    expect(JSON.stringify(response.json())).not.toMatch(/at .*\.ts|SyntaxError/);
  });

  test('the home page is server rendered in German with prices and meta tags', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    const html = response.body;
    expect(html).toContain('<html lang="de">');
    expect(html).toContain('Professionelle Bewerbungsfotos aus Ihren eigenen Selfies');
    for (const price of ['14,90&nbsp;€', '34,90&nbsp;€', '69,90&nbsp;€', '27,92&nbsp;€', '55,92&nbsp;€']) {
      expect(html.replaceAll('\u00a0', '&nbsp;')).toContain(price);
    }
    expect(html).toContain('gültig bis 31. Dezember 2026');
    expect(html).toMatch(/<title>KI-Bewerbungsfotos aus Ihren Selfies \| Bewerbungsfoto Studio<\/title>/);
    expect(html).toContain('<link rel="canonical" href="http://shop.test/">');
    expect(html).toContain('<link rel="alternate" hreflang="en" href="http://shop.test/?lang=en">');
    expect(html).toContain('<link rel="alternate" hreflang="es" href="http://shop.test/?lang=es">');
    expect(html).toContain('"@type":"Organization"');
    // Nothing on the home page needs the client application: the server's HTML and the small page script.
    expect(html).toContain('<script id="static-page-data" type="application/json">');
    expect(html).not.toContain('<script id="app-data"');
  });

  test('the language comes from ?lang=, then the remembered cookie', async () => {
    const english = await t.app.inject({ method: 'GET', url: '/?lang=en' });
    expect(english.body).toContain('<html lang="en">');
    expect(english.body).toContain('Professional application photos from your own selfies');
    expect(english.body).toContain('<link rel="canonical" href="http://shop.test/?lang=en">');
    const spanish = await t.app.inject({ method: 'GET', url: '/', headers: { cookie: 'other=1; lang=es' } });
    expect(spanish.body).toContain('<html lang="es">');
    expect(spanish.headers['content-language']).toBe('es');
    const bogus = await t.app.inject({ method: 'GET', url: '/?lang=fr', headers: { cookie: 'lang=xx' } });
    expect(bogus.body).toContain('<html lang="de">');
  });

  test('route handling of the spec: /wizard/* to /order, unknown paths to /', async () => {
    const wizard = await t.app.inject({ method: 'GET', url: '/wizard/gender' });
    expect(wizard.statusCode).toBe(302);
    expect(wizard.headers.location).toBe('/order');
    const unknown = await t.app.inject({ method: 'GET', url: '/does/not/exist' });
    expect(unknown.statusCode).toBe(302);
    expect(unknown.headers.location).toBe('/');
    const file = await t.app.inject({ method: 'GET', url: '/favicon.ico' });
    expect(file.statusCode).toBe(404);
  });

  test('the legal pages and contact are server rendered from the site configuration', async () => {
    for (const [url, text] of [
      ['/impressum', 'Impressum'],
      ['/datenschutz', 'Datenschutz'],
      ['/agb', 'Widerrufsbelehrung'],
      ['/barrierefreiheit', 'Barrierefreiheit'],
      ['/ueber-uns', 'Über uns'],
      ['/kontakt', 'Kontakt'],
      ['/widerruf', 'Widerruf bestätigen'],
    ] as const) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expect(response.body, url).toContain(text);
      expect(response.body, url).toContain('Bewerbungsfoto Studio');
    }
    // The footer now links them on every page.
    const home = (await t.app.inject({ method: 'GET', url: '/' })).body;
    for (const path of ['/impressum', '/datenschutz', '/agb', '/barrierefreiheit', '/ueber-uns', '/kontakt', '/widerruf']) expect(home).toContain(`href="${path}"`);
    // The About page speaks the visitor's language and is not marked as a binding German text.
    const about = await t.app.inject({ method: 'GET', url: '/ueber-uns?lang=en' });
    expect(about.body).toContain('How we work');
    expect(about.body).not.toMatch(/<p class="alert alert--info"[^>]*>This English version/);
    expect((await t.app.inject({ method: 'GET', url: '/impressum?lang=en' })).body).toMatch(/<p class="alert alert--info"[^>]*>This English version/);
    // The withdrawal notice names the online function (§ 356a BGB) and links it.
    expect((await t.app.inject({ method: 'GET', url: '/agb' })).body).toMatch(/„<a[^>]*href="\/widerruf"[^>]*>Vertrag widerrufen<\/a>“/);
    expect((await t.app.inject({ method: 'GET', url: '/widerruf?lang=es' })).body).toContain('Confirmar desistimiento');
    // Complete HTML without inline scripts (the CSP forbids them): no streamed Suspense swaps.
    for (const url of ['/agb', '/tracking', '/order/gender', '/kontakt', '/widerruf', '/admin/orders']) {
      const body = (await t.app.inject({ method: 'GET', url })).body;
      // Only scripts carrying this answer's nonce may be inline.
      const scripts = [...body.matchAll(/<script(?![^>]*type="application\/(?:ld\+)?json")(?![^>]*nonce=)[^>]*>([^<]*)<\/script>/g)].filter((m) => m[1]!.trim() !== '');
      expect({ url, inline: scripts.map((m) => m[0].slice(0, 60)) }).toEqual({ url, inline: [] });
    }
    // Nothing claims a malware scan the software does not do.
    expect((await t.app.inject({ method: 'GET', url: '/datenschutz' })).body.toLowerCase()).not.toContain('malware');
  });

  test('robots.txt and sitemap.xml list the public pages in three languages', async () => {
    const robots = await t.app.inject({ method: 'GET', url: '/robots.txt' });
    expect(robots.body).toContain('Disallow: /admin');
    expect(robots.body).toContain('Sitemap: http://shop.test/sitemap.xml');
    const sitemap = await t.app.inject({ method: 'GET', url: '/sitemap.xml' });
    expect(sitemap.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(sitemap.body).toContain('<loc>http://shop.test/kontakt?lang=es</loc>');
    expect(sitemap.body).toContain('hreflang="en" href="http://shop.test/?lang=en"');
    expect(sitemap.body).not.toContain('order-status');
  });

  test('page data cannot break out of its script element', async () => {
    // A page the client application runs (a form), and one served without it.
    const app = await t.app.inject({ method: 'GET', url: '/order/gender' });
    const data = /<script id="app-data" type="application\/json">([\s\S]*?)<\/script>/.exec(app.body)![1]!;
    expect(data).not.toContain('<');
    const parsed = JSON.parse(data);
    expect(parsed.language).toBe('de');
    expect(parsed.catalog.packages).toHaveLength(3);
    const home = await t.app.inject({ method: 'GET', url: '/' });
    const staticData = /<script id="static-page-data" type="application\/json">([\s\S]*?)<\/script>/.exec(home.body)![1]!;
    expect(staticData).not.toContain('<');
    expect(JSON.parse(staticData).language).toBe('de');
  });
});

describe('without a campaign', () => {
  let db: DatabaseHandle;
  let t: TestApp;
  beforeAll(async () => {
    db = await testDatabases()[0]!.open();
    t = await buildTestApp(db, { CAMPAIGN_PERCENT: '0' });
  });
  afterAll(async () => {
    await t.close();
    await db.close();
  });

  test('list prices only and no banner', async () => {
    const catalog = (await t.app.inject({ method: 'GET', url: '/api/catalog' })).json();
    expect(catalog.campaign).toBeNull();
    expect(catalog.packages.map((p: { priceCents: number }) => p.priceCents)).toEqual([1490, 3490, 6990]);
    const html = (await t.app.inject({ method: 'GET', url: '/' })).body;
    expect(html).not.toContain('campaign-banner');
  });
});

// Which process's models' thread loads the pose model first (app-adapters.ts; tf-runtime.ts says what it saves): only a
// worker's, which makes drafts beside its checks. Each process is built as its entry point builds it.
describe('the pose model loads first in a worker process only', () => {
  let db: DatabaseHandle;
  beforeAll(async () => {
    db = await testDatabases()[0]!.open();
  });
  afterAll(async () => {
    await db.close();
  });

  test.each<{ process: string; env: Record<string, string>; overrides: { webPages?: boolean }; posesFirst: boolean }>([
    // npm start (scripts/start.mjs, main.ts): pages and jobs in one process; it checks uploads while customers wait.
    { process: 'the single shop', env: {}, overrides: {}, posesFirst: false },
    // A web process beside workers (RUN_JOBS=false): it only checks uploads.
    { process: 'a web process', env: { RUN_JOBS: 'false' }, overrides: {}, posesFirst: false },
    // npm run worker (worker-main.ts): jobs, no pages.
    { process: 'a worker', env: { RUN_JOBS: 'true' }, overrides: { webPages: false }, posesFirst: true },
  ])('$process: $posesFirst', async ({ env, overrides, posesFirst }) => {
    const t = await buildTestApp(db, env, overrides);
    try {
      const models = t.app.inference as ModelThread;
      expect(models.posesFirst).toBe(posesFirst);
      // Built, not started: the thread starts on the first photo.
      expect(models.threadRunning).toBe(false);
    } finally {
      await t.close();
    }
  });
});
