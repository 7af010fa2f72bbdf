import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { DatabaseHandle } from '../db/client.js';
import { testDatabases } from '../test/databases.js';
import { createMailer, type EmailMessage, type Mailer } from './mailer.js';
import { escapeHtml, outboxRoutes } from './outbox-routes.js';

interface OutboxJson {
  mails: Array<{
    id: string;
    to: string;
    subject: string;
    template: string;
    language: string;
    status: string;
    transport: string;
    orderId: string | null;
    createdAt: string;
    text: string;
    html: string;
  }>;
}

function message(overrides: Partial<EmailMessage> = {}): EmailMessage {
  return {
    to: `kunde-${randomUUID()}@example.test`,
    subject: 'Ihre Fotos sind fertig',
    html: '<p>Ihre <strong>Bewerbungsfotos</strong> sind fertig.</p>',
    text: 'Ihre Bewerbungsfotos sind fertig.',
    template: 'photos-ready',
    language: 'de',
    ...overrides,
  };
}

test('escapeHtml leaves no markup or attribute breakout', () => {
  expect(escapeHtml(`<script>alert("x")</script> & 'y'`)).toBe('&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62; &#38; &#39;y&#39;');
});

describe.each(testDatabases())('dev outbox routes on $name', (testDb) => {
  let handle: DatabaseHandle;
  let app: FastifyInstance;
  let mailer: Mailer;
  beforeAll(async () => {
    handle = await testDb.open();
    mailer = createMailer({ db: handle.db, smtpUrl: undefined, from: 'Shop <shop@example.test>' });
    app = Fastify();
    await app.register(outboxRoutes, { db: handle.db });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await mailer.close();
    await handle.close();
  });

  async function send(overrides: Partial<EmailMessage> = {}) {
    const msg = message(overrides);
    const result = await mailer.sendEmail(msg);
    if (!result.ok) throw new Error(`sendEmail failed: ${result.error}`);
    return { msg, id: result.id };
  }

  test('the JSON outbox lists the mails to an address, newest first', async () => {
    const to = `Kunde-${randomUUID()}@Example.test`;
    const first = await send({ to, subject: 'Erste' });
    const second = await send({ to, subject: 'Zweite', template: 'order-confirmed', language: 'en' });
    await send({ subject: 'An jemand anderen' });

    const res = await app.inject({ method: 'GET', url: '/api/dev/outbox', query: { to: to.toLowerCase() } });
    expect(res.statusCode).toBe(200);
    const body = res.json<OutboxJson>();
    expect(body.mails.map((m) => m.id)).toEqual([second.id, first.id]);
    expect(body.mails[0]).toEqual({
      id: second.id,
      to,
      subject: 'Zweite',
      template: 'order-confirmed',
      language: 'en',
      status: 'outbox',
      transport: 'outbox',
      orderId: null,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      text: second.msg.text,
      html: second.msg.html,
    });

    const all = (await app.inject('/api/dev/outbox')).json<OutboxJson>();
    expect(all.mails.length).toBeGreaterThanOrEqual(3);
  });

  test('the HTML listing shows the mail and escapes what it shows', async () => {
    const { id } = await send({ subject: '<script>alert(1)</script> bestätigt', template: 'x"><img src=x onerror=alert(2)>' });
    const res = await app.inject('/dev/outbox');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toContain(`href="/dev/outbox/${id}"`);
    expect(res.body).toContain('&#60;script&#62;alert(1)&#60;/script&#62; bestätigt');
    expect(res.body).not.toContain('<script>');
    expect(res.body).not.toContain('<img');
  });

  test('one mail shows its HTML in a sandboxed frame, with a header and a link to the text version', async () => {
    const { id, msg } = await send({ html: '<p>Hallo "Welt" <em>&amp; Co</em></p>' });
    const res = await app.inject(`/dev/outbox/${id}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toContain(msg.to);
    expect(res.body).toContain(msg.subject);
    expect(res.body).toContain('photos-ready');
    expect(res.body).toContain(`href="/dev/outbox/${id}.txt"`);
    expect(res.body).toContain(`<iframe sandbox title="HTML body" srcdoc="${escapeHtml(msg.html)}"></iframe>`);

    const text = await app.inject(`/dev/outbox/${id}.txt`);
    expect(text.statusCode).toBe(200);
    expect(text.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(text.body).toBe(msg.text);
  });

  test('unknown and malformed ids are 404 with a stable code', async () => {
    for (const url of [`/dev/outbox/${randomUUID()}`, `/dev/outbox/${randomUUID()}.txt`, '/dev/outbox/not-a-uuid', "/dev/outbox/1' or '1'='1.txt"]) {
      const res = await app.inject(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json(), url).toEqual({ error: { code: 'notFound', requestId: expect.any(String) } });
    }
  });
});
