// Every public route, fed hostile values in every body field, query parameter and path parameter: no answer
// is a 500, every error has our shape, refused input writes nothing, and no submitted value reaches the logs.
// The values, the routes' valid requests and the seeded shop are in test/hostile-input/.
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { isPlainText } from '../domain/validation.js';
import type { DatabaseHandle } from './db/client.js';
import { MAX_URL_LENGTH } from './http/error-handler.js';
import { LOGIN_LIMITS } from './modules/auth/auth-service.js';
import { buildTestApp, type TestApp } from './test/app.js';
import { testDatabases } from './test/databases.js';
import { generateCases } from './test/hostile-input/cases.js';
import { changedTables, errorShapeProblem, fingerprinter, linesWithHostileValues, nextAddress, rawHttp } from './test/hostile-input/checks.js';
import { seedShop, STAFF, type Seed } from './test/hostile-input/shop-seed.js';
import { multipart, portraitJpeg } from '../testing/images.js';
import { signInStaff } from './test/staff.js';

describe.each(testDatabases())('hostile input on $name', (testDb) => {
  let db: DatabaseHandle;
  let t: TestApp;
  let seed: Seed;
  const logs: string[] = [];

  beforeAll(async () => {
    db = await testDb.open();
    t = await buildTestApp(db, { TRUST_PROXY: 'true', LOG_LEVEL: 'trace' }, { logger: true, logStream: { write: (line) => void logs.push(line) } });
    seed = await seedShop(t.app, t.config.appSecret);
  }, 60_000);
  afterAll(async () => {
    await t.close();
    await db.close();
  });

  test('the seeded proofs open their routes, so the hostile values below reach validation and the database', async () => {
    const { draft, completed, withdrawable } = seed;
    const query = (params: URLSearchParams) => `?${params.toString()}`;
    const opened = [
      await t.app.inject({ method: 'GET', url: `/api/orders/${draft.orderId}/draft`, headers: { 'x-draft-token': draft.draftToken } }),
      await t.app.inject({ method: 'GET', url: `/api/orders/${completed.orderId}/status?token=${completed.statusToken}` }),
      await t.app.inject({ method: 'GET', url: `/api/orders/${withdrawable.orderId}/confirmation?session_id=${withdrawable.sessionId}` }),
      await t.app.inject({ method: 'GET', url: `/api/orders/${completed.orderId}/invoices/${completed.invoiceId}?token=${completed.statusToken}` }),
      await t.app.inject({ method: 'GET', url: `/api/orders/${completed.orderId}/results/${completed.imageId}/download${query(completed.download)}` }),
      await t.app.inject({ method: 'GET', url: `/api/orders/${completed.orderId}/results.zip${query(completed.zip)}` }),
      await t.app.inject({ method: 'GET', url: `/files/${completed.file.key}${query(completed.file.query)}` }),
      await t.app.inject({ method: 'GET', url: `/sandbox/checkout/${withdrawable.sessionId}` }),
      await t.app.inject({ method: 'GET', url: `/dev/outbox/${seed.mailId}` }),
      await t.app.inject({ method: 'POST', url: '/api/tracking', payload: { orderId: completed.orderNumber, email: completed.email }, headers: { 'x-forwarded-for': nextAddress() } }),
    ];
    expect(opened.map((response) => response.statusCode)).toEqual([200, 200, 200, 200, 302, 200, 200, 200, 200, 200]);
  });

  test('every public route answers every hostile value below 500, errors in our shape, refused input writes nothing', async () => {
    const publicRoutes = t.app.routeTable.filter((route) => !route.url.startsWith('/api/admin'));
    const cases = generateCases(publicRoutes, seed, t.app);
    const logStart = logs.length;
    const problems: string[] = [];
    const statuses = new Map<number, number>();
    // One request at a time: a refused request is judged by what the database holds right before and after it.
    const fingerprint = await fingerprinter(db);
    let baseline = await fingerprint();
    for (const item of cases) {
      if (item.resetLimits) await t.app.db.db.execute(sql`delete from rate_limits where key like ${item.resetLimits}`);
      if (item.before) {
        await item.before();
        baseline = await fingerprint();
      }
      const response = await t.app.inject({
        method: item.method as 'GET',
        url: item.url,
        headers: { ...item.headers, 'x-forwarded-for': nextAddress() },
        ...(item.payload !== undefined ? { payload: item.payload } : {}),
      });
      statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
      const where = `${item.route} [${item.label}] -> ${response.statusCode}`;
      if (response.statusCode >= 500) problems.push(`${where}: ${response.body.slice(0, 200)}`);
      const page = item.route.endsWith(' /*') && String(response.headers['content-type']).startsWith('text/html');
      if (response.statusCode >= 400 && item.method !== 'HEAD' && !page) {
        const shape = errorShapeProblem(response);
        if (shape) problems.push(`${where}: not our error shape (${shape}): ${response.body.slice(0, 120)}`);
      }
      const after = await fingerprint();
      if (response.statusCode >= 400) {
        const changed = changedTables(baseline, after).filter((table) => !item.mayWrite?.includes(table));
        if (changed.length) problems.push(`${where}: refused, but wrote to ${changed.join(', ')}`);
      }
      baseline = after;
    }
    if (process.env.HOSTILE_REPORT) console.info(`${testDb.name}: ${cases.length} requests`, Object.fromEntries([...statuses].sort(([a], [b]) => a - b)));
    expect(problems).toEqual([]);
    expect(cases.length).toBeGreaterThan(2000);
    // The logger was on (trace level) for all of it: every request left lines to search.
    expect(logs.length - logStart).toBeGreaterThan(cases.length);
    // Prototype keys in bodies were refused or ignored, never merged into Object.prototype.
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(linesWithHostileValues(logs.slice(logStart))).toEqual([]);
  }, 180_000);

  test('malformed multipart bodies are a 400 in our shape on the customer and the staff upload route, a photo body under a hostile name is kept without it, and a body that is no photo leaves nothing behind', async () => {
    const staff = await signInStaff(t.app, '10.250.0.1');
    const jpeg = await portraitJpeg();
    const good = multipart({ buffer: jpeg, fileName: 'selfie.jpg', contentType: 'image/jpeg' });
    const boundary = good.contentType.split('boundary=')[1]!;
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="selfie.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`;
    const withBoundary = `multipart/form-data; boundary=${boundary}`;
    const bodies: { label: string; contentType: string; body: string | Buffer; status: number; code: string }[] = [
      { label: 'cut off inside the file', contentType: withBoundary, body: good.body.subarray(0, head.length + 5000), status: 400, code: 'malformedUpload' },
      { label: 'closing boundary missing', contentType: withBoundary, body: Buffer.concat([Buffer.from(head), jpeg]), status: 400, code: 'malformedUpload' },
      { label: 'cut off inside the part headers', contentType: withBoundary, body: head.slice(0, 60), status: 400, code: 'malformedUpload' },
      { label: 'another boundary than declared', contentType: 'multipart/form-data; boundary=not-the-one-used', body: good.body, status: 400, code: 'malformedUpload' },
      { label: 'no boundary', contentType: 'multipart/form-data', body: good.body, status: 400, code: 'malformedUpload' },
      { label: 'empty boundary', contentType: 'multipart/form-data; boundary=', body: good.body, status: 400, code: 'noFile' },
      { label: 'boundary of 300 characters', contentType: `multipart/form-data; boundary=${'b'.repeat(300)}`, body: good.body, status: 400, code: 'malformedUpload' },
      { label: 'garbage', contentType: withBoundary, body: Buffer.from('\u0000Markermann\u0001\u00ff'.repeat(500), 'latin1'), status: 400, code: 'malformedUpload' },
      { label: 'empty body', contentType: withBoundary, body: '', status: 400, code: 'noFile' },
      { label: 'only the closing boundary', contentType: withBoundary, body: `--${boundary}--\r\n`, status: 400, code: 'noFile' },
      { label: 'a part without headers', contentType: withBoundary, body: `--${boundary}\r\nMarkermann\r\n\r\nx\r\n--${boundary}--\r\n`, status: 400, code: 'noFile' },
      { label: 'a text field instead of a file', contentType: withBoundary, body: `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nMarkermann\r\n--${boundary}--\r\n`, status: 400, code: 'malformedUpload' },
      { label: 'a text field before the file', contentType: withBoundary, body: Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nMarkermann\r\n`), good.body]), status: 400, code: 'malformedUpload' },
    ];
    const targets = [
      { route: 'POST /api/orders/:id/uploads', url: `/api/orders/${seed.draft.orderId}/uploads`, headers: { 'x-draft-token': seed.draft.draftToken } },
      { route: 'POST /api/admin/orders/:id/results', url: `/api/admin/orders/${seed.completed.orderId}/results`, headers: { cookie: staff.cookie, 'x-csrf-token': staff.csrf } },
    ];
    const fingerprint = await fingerprinter(db);
    const logStart = logs.length;
    const answers: string[] = [];
    for (const target of targets) {
      for (const item of bodies) {
        const before = await fingerprint();
        const response = await t.app.inject({ method: 'POST', url: target.url, headers: { ...target.headers, 'content-type': item.contentType }, payload: item.body });
        const after = await fingerprint();
        answers.push(`${target.route} [${item.label}] -> ${response.statusCode} ${response.json().error?.code} ${errorShapeProblem(response) ?? 'shape ok'} ${changedTables(before, after).join(',') || 'nothing written'}`);
      }
    }
    expect(answers).toEqual(targets.flatMap((target) => bodies.map((item) => `${target.route} [${item.label}] -> ${item.status} ${item.code} shape ok nothing written`)));
    // A well-formed photo under a hostile name is taken; the name is kept without what could disguise it.
    for (const fileName of ['Max\u0000Markermann.jpg', `${'Markermann'.repeat(100)}.jpg`, '\u202Egpj.Markermann\u0007.exe']) {
      const body = multipart({ buffer: jpeg, fileName, contentType: 'image/jpeg' });
      const response = await t.app.inject({ method: 'POST', url: targets[0]!.url, headers: { ...targets[0]!.headers, 'content-type': body.contentType }, payload: body.body });
      expect(response.statusCode, fileName).toBe(201);
      expect(isPlainText(response.json().fileName), fileName).toBe(true);
      expect(response.json().fileName).not.toMatch(/[\u202A-\u202E]/);
    }
    // The wizard's way: the photo as the body, its name percent-encoded in X-File-Name (or not encoded at all).
    const asBody = (fileName: string, payload: string | Buffer = jpeg) =>
      t.app.inject({ method: 'POST', url: targets[0]!.url, headers: { ...targets[0]!.headers, 'content-type': 'image/jpeg', 'x-file-name': fileName }, payload });
    const sentNames = ['Max%00Markermann.jpg', `${'Markermann'.repeat(100)}.jpg`, '%E2%80%AEgpj.Markermann%07.exe', '..%2F..%2Fetc%2Fpasswd%2FMarkermann', 'Markermann%zz', 'Markermann%ED%A0%80'];
    for (const fileName of sentNames) {
      const response = await asBody(fileName);
      expect(response.statusCode, fileName).toBe(201);
      expect(isPlainText(response.json().fileName), fileName).toBe(true);
      expect(response.json().fileName, fileName).not.toMatch(/[\u202A-\u202E/\\]/);
      // Photos kept for the names above make room again for the next (an order takes ten).
      await t.app.inject({ method: 'DELETE', url: `${targets[0]!.url}/${response.json().id}`, headers: targets[0]!.headers });
    }
    const fingerprintBefore = await fingerprint();
    const refusedBodies = await Promise.all([asBody('leer.jpg', ''), asBody('Markermann.jpg', Buffer.from('\u0000Markermann\u0001'.repeat(500), 'latin1')), asBody('cut.jpg', jpeg.subarray(0, 300))]);
    expect(refusedBodies.map((response) => `${response.statusCode} ${response.json().error?.code} ${errorShapeProblem(response) ?? 'shape ok'}`)).toEqual([
      '415 notAnImage shape ok',
      '415 notAnImage shape ok',
      '415 corruptImage shape ok',
    ]);
    expect(changedTables(fingerprintBefore, await fingerprint())).toEqual([]);
    expect(linesWithHostileValues(logs.slice(logStart))).toEqual([]);
  });

  test('a refused sign-in counts against the address like a wrong password: a NUL buys no extra tries', async () => {
    const from = '10.240.0.1';
    const login = (payload: object, address = from) => t.app.inject({ method: 'POST', url: '/api/auth/login', payload, headers: { 'x-forwarded-for': address } });
    const logStart = logs.length;
    for (let attempt = 0; attempt < LOGIN_LIMITS.perAddress.attempts; attempt++) {
      const refused = await login({ email: `markermann\u0000${attempt}@example.de`, password: 'Markermann-Passwort' });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error).toMatchObject({ code: 'validationFailed', fields: { email: 'invalidText' } });
    }
    const locked = await login({ email: 'markermann\u0000@example.de', password: 'Markermann-Passwort' });
    expect(locked.statusCode).toBe(429);
    expect(locked.json().error.code).toBe('tooManyAttempts');
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    // The lockout holds for the real password too, from that address; another address signs in.
    expect((await login(STAFF)).statusCode).toBe(429);
    expect((await login(STAFF, '10.240.0.2')).statusCode).toBe(200);
    expect(linesWithHostileValues(logs.slice(logStart))).toEqual([]);
  });

  test('over real HTTP: what Node and the router refuse answers in our shape too', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const logStart = logs.length;
    const cases: { label: string; request: string; status: number; code: string }[] = [
      { label: 'headers over 16 KiB', request: `GET /api/health HTTP/1.1\r\nHost: shop.test\r\nX-Markermann: ${'Markermann'.repeat(2000)}\r\n\r\n`, status: 431, code: 'headersTooLarge' },
      { label: 'an address over 16 KiB', request: `GET /api/catalog?q=${'Markermann'.repeat(2000)} HTTP/1.1\r\nHost: shop.test\r\n\r\n`, status: 431, code: 'headersTooLarge' },
      { label: `an address over ${MAX_URL_LENGTH} characters`, request: `GET /kontakt?q=${'Markermann'.repeat(900)} HTTP/1.1\r\nHost: shop.test\r\nConnection: close\r\n\r\n`, status: 414, code: 'uriTooLong' },
      // Over the router's maxParamLength the parametric route does not match; the catch-all answers.
      { label: 'a path parameter over maxParamLength', request: `GET /api/orders/${'a'.repeat(150)}/status HTTP/1.1\r\nHost: shop.test\r\nConnection: close\r\n\r\n`, status: 404, code: 'notFound' },
      { label: 'invalid percent-encoding', request: 'GET /api/orders/% HTTP/1.1\r\nHost: shop.test\r\nConnection: close\r\n\r\n', status: 400, code: 'badRequest' },
      { label: 'an unknown method', request: 'MARKERMANN /api/contact HTTP/1.1\r\nHost: shop.test\r\n\r\n', status: 400, code: 'badRequest' },
      { label: 'a method without a route', request: 'PROPFIND /api/contact HTTP/1.1\r\nHost: shop.test\r\nConnection: close\r\n\r\n', status: 404, code: 'notFound' },
      { label: 'a TLS handshake on the HTTP port', request: '\u0016\u0003\u0001\u0002\u0000\u0001\u0000\u0001\u00fc\u0003\u0003Markermann\r\n\r\n', status: 400, code: 'badRequest' },
      { label: 'a NUL in the request line', request: 'GET /api/\u0000Markermann HTTP/1.1\r\nHost: shop.test\r\n\r\n', status: 400, code: 'badRequest' },
      { label: 'a NUL in a header', request: 'GET /api/health HTTP/1.1\r\nHost: shop.test\r\nX-Name: Max\u0000Markermann\r\n\r\n', status: 400, code: 'badRequest' },
      { label: 'a header without a colon', request: 'GET /api/health HTTP/1.1\r\nHost: shop.test\r\nMarkermann\r\n\r\n', status: 400, code: 'badRequest' },
      { label: 'Content-Length and Transfer-Encoding together', request: 'POST /api/contact HTTP/1.1\r\nHost: shop.test\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n', status: 400, code: 'badRequest' },
      { label: 'a Content-Length that is not a number', request: 'POST /api/contact HTTP/1.1\r\nHost: shop.test\r\nContent-Length: Markermann\r\n\r\n', status: 400, code: 'badRequest' },
      { label: 'broken JSON', request: 'POST /api/contact HTTP/1.1\r\nHost: shop.test\r\nContent-Type: application/json\r\nContent-Length: 12\r\nConnection: close\r\n\r\n{"Markermann', status: 400, code: 'badRequest' },
    ];
    const answers: string[] = [];
    for (const item of cases) {
      const response = await rawHttp(port, Buffer.from(item.request, 'latin1'));
      let code = 'no JSON body';
      try {
        const body = JSON.parse(response.body) as { error: { code: string; requestId: string } };
        code = body.error.requestId === response.headers['x-request-id'] && response.headers['x-content-type-options'] === 'nosniff' ? body.error.code : 'id or header missing';
      } catch {
        // stays 'no JSON body'
      }
      answers.push(`${item.label}: ${response.status} ${code}`);
    }
    expect(answers).toEqual(cases.map((item) => `${item.label}: ${item.status} ${item.code}`));
    expect(linesWithHostileValues(logs.slice(logStart))).toEqual([]);
  });
});
