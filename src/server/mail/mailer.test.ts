import { randomUUID } from 'node:crypto';
import { createServer, type AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, onTestFinished, test } from 'vitest';
import type { DatabaseHandle } from '../db/client.js';
import { outgoingMail } from '../db/schema.js';
import { testDatabases } from '../test/databases.js';
import { sendDeferred } from './deferred-mail.js';
import { createMailer, isPlausibleAddress, STALE_SENDING_MS, type EmailMessage, type MailerOptions } from './mailer.js';
import { decodeHeader, parseMime, startSmtpTestServer, type SmtpTestServer } from './smtp-test-server.js';

const FROM = 'Bewerbungsfoto Shop <shop@example.test>';

function message(overrides: Partial<EmailMessage> = {}): EmailMessage {
  return {
    to: `kunde-${randomUUID()}@example.test`,
    subject: 'Ihre Bestellung ist bestätigt',
    html: '<p>Vielen Dank für Ihre Bestellung, <strong>Jörg</strong>!</p>',
    text: 'Vielen Dank für Ihre Bestellung, Jörg!\n\nGrüße aus dem Studio',
    template: 'order-confirmed',
    language: 'de',
    ...overrides,
  };
}

/** A port on which nothing listens: taken from the OS and given back. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

test('rough address check accepts ordinary addresses and refuses lists and line breaks', () => {
  expect(isPlausibleAddress('jörg.müller+foto@beispiel.de')).toBe(true);
  expect(isPlausibleAddress('a@b.co')).toBe(true);
  expect(isPlausibleAddress('no-at-sign.example.test')).toBe(false);
  expect(isPlausibleAddress('a@b@example.test')).toBe(false);
  expect(isPlausibleAddress('a@example.test, b@example.test')).toBe(false);
  expect(isPlausibleAddress('a@example.test\r\nBcc: b@example.test')).toBe(false);
  expect(isPlausibleAddress('Name <a@example.test>')).toBe(false);
});

describe.each(testDatabases())('mailer on $name', (testDb) => {
  let handle: DatabaseHandle;
  let smtp: SmtpTestServer;
  beforeAll(async () => {
    handle = await testDb.open();
    smtp = await startSmtpTestServer();
  });
  afterAll(async () => {
    await smtp.close();
    await handle.close();
  });

  function mailer(smtpUrl: MailerOptions['smtpUrl']) {
    const created = createMailer({ db: handle.db, smtpUrl, from: FROM });
    onTestFinished(() => created.close());
    return created;
  }

  async function rowsTo(to: string) {
    return handle.db.select().from(outgoingMail).where(eq(outgoingMail.toAddress, to));
  }

  test('without SMTP the mail is stored in the outbox and nothing is sent', async () => {
    const outbox = mailer(undefined);
    expect(outbox.transport).toBe('outbox');
    await outbox.verify();
    const msg = message({ orderId: null });
    const result = await outbox.sendEmail(msg);
    expect(result).toEqual({ ok: true, id: expect.any(String), transport: 'outbox', duplicate: false });
    const [row] = await rowsTo(msg.to);
    expect(row).toMatchObject({
      id: result.id,
      status: 'outbox',
      transport: 'outbox',
      fromAddress: FROM,
      subject: msg.subject,
      html: msg.html,
      text: msg.text,
      template: 'order-confirmed',
      language: 'de',
      sentAt: null,
    });
    expect(smtp.received.filter((m) => m.rcptTo.includes(msg.to))).toHaveLength(0);
  });

  test('with SMTP the server receives one multipart mail with HTML and text, and the row is sent', async () => {
    const sender = mailer(smtp.url);
    expect(sender.transport).toBe('smtp');
    await sender.verify();
    const msg = message({ replyTo: 'studio@example.test' });
    const result = await sender.sendEmail(msg);
    expect(result).toMatchObject({ ok: true, transport: 'smtp', duplicate: false });

    const arrived = smtp.received.filter((m) => m.rcptTo.includes(msg.to));
    expect(arrived).toHaveLength(1);
    const mail = arrived[0]!;
    expect(mail.mailFrom).toBe('shop@example.test');
    expect(mail.rcptTo).toEqual([msg.to]);

    const parsed = parseMime(mail.raw);
    expect(parsed.headers.get('content-type')).toMatch(/^multipart\/alternative;/);
    expect(decodeHeader(parsed.headers.get('subject') ?? '')).toBe('Ihre Bestellung ist bestätigt');
    expect(parsed.headers.get('from')).toContain('<shop@example.test>');
    expect(decodeHeader(parsed.headers.get('from') ?? '')).toBe(FROM);
    expect(parsed.headers.get('to')).toBe(msg.to);
    expect(parsed.headers.get('reply-to')).toBe('studio@example.test');
    const byType = new Map(parsed.parts.map((p) => [(p.headers.get('content-type') ?? '').split(';')[0], p.body]));
    expect([...byType.keys()]).toEqual(['text/plain', 'text/html']);
    expect(byType.get('text/plain')?.replace(/\r\n/g, '\n')).toBe(msg.text);
    expect(byType.get('text/html')).toBe(msg.html);

    const [row] = await rowsTo(msg.to);
    expect(row).toMatchObject({ id: result.id, status: 'sent', transport: 'smtp', error: null });
    expect(row?.providerMessageId).toBe(parsed.headers.get('message-id'));
    expect(row?.sentAt).toBeInstanceOf(Date);
  });

  test('a recipient the server refuses gives ok:false and a failed row, without throwing', async () => {
    const msg = message({ to: `reject-${randomUUID()}@example.test` });
    const result = await mailer(smtp.url).sendEmail(msg);
    expect(result).toMatchObject({ ok: false, id: expect.any(String), error: expect.stringContaining('550') });
    const [row] = await rowsTo(msg.to);
    expect(row).toMatchObject({ id: result.id, status: 'failed', transport: 'smtp', sentAt: null, providerMessageId: null });
    expect(row?.error).toContain('Mailbox unavailable');
    expect(smtp.received.filter((m) => m.rcptTo.includes(msg.to))).toHaveLength(0);
  });

  test('an SMTP server that is not there gives ok:false and a failed row', async () => {
    const msg = message();
    const result = await mailer(`smtp://127.0.0.1:${await closedPort()}`).sendEmail(msg);
    expect(result.ok).toBe(false);
    const [row] = await rowsTo(msg.to);
    expect(row).toMatchObject({ id: result.id, status: 'failed' });
    expect(row?.error).toMatch(/ECONNREFUSED|connect/i);
  });

  test('a dedupe key sends once, also when two sends race', async () => {
    const sender = mailer(smtp.url);
    const dedupeKey = `order-confirmed:${randomUUID()}`;
    const msg = message({ dedupeKey });
    const [a, b] = await Promise.all([sender.sendEmail(msg), sender.sendEmail(msg)]);
    const c = await sender.sendEmail({ ...msg, subject: 'Changed subject' });
    expect([a, b, c].every((r) => r.ok)).toBe(true);
    expect([a, b, c].map((r) => r.ok && r.duplicate).sort()).toEqual([false, true, true]);
    expect(new Set([a.id, b.id, c.id]).size).toBe(1);
    expect(smtp.received.filter((m) => m.rcptTo.includes(msg.to))).toHaveLength(1);
    const rows = await rowsTo(msg.to);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'sent', subject: msg.subject, dedupeKey });
  });

  test('a dedupe key of a failed mail does not block the next attempt', async () => {
    const dedupeKey = `order-confirmed:${randomUUID()}`;
    const msg = message({ dedupeKey });
    const failed = await mailer(`smtp://127.0.0.1:${await closedPort()}`).sendEmail(msg);
    expect(failed.ok).toBe(false);
    const retried = await mailer(smtp.url).sendEmail(msg);
    expect(retried).toEqual({ ok: true, id: failed.id, transport: 'smtp', duplicate: false });
    const [row] = await rowsTo(msg.to);
    expect(row).toMatchObject({ status: 'sent', error: null });
    expect(smtp.received.filter((m) => m.rcptTo.includes(msg.to))).toHaveLength(1);
  });

  test('a row left sending by a sender that died is claimed again once stale; a young one counts as in flight', async () => {
    const dedupeKey = `payment-received:${randomUUID()}`;
    const msg = message({ dedupeKey });
    // What a process that died between storing the row and the SMTP answer leaves behind.
    await handle.db.insert(outgoingMail).values({
      id: randomUUID(),
      template: msg.template,
      language: msg.language,
      toAddress: msg.to,
      fromAddress: FROM,
      subject: msg.subject,
      html: msg.html,
      text: msg.text,
      dedupeKey,
      transport: 'smtp',
      status: 'sending',
      attemptedAt: new Date(Date.now() - 60_000),
    });
    const young = await mailer(smtp.url).sendEmail(msg);
    expect(young).toMatchObject({ ok: true, duplicate: true, inFlight: true });
    expect(smtp.received.filter((m) => m.rcptTo.includes(msg.to))).toHaveLength(0);

    const later = createMailer({ db: handle.db, smtpUrl: smtp.url, from: FROM, now: () => new Date(Date.now() + STALE_SENDING_MS) });
    onTestFinished(() => later.close());
    const reclaimed = await later.sendEmail(msg);
    expect(reclaimed).toMatchObject({ ok: true, duplicate: false });
    expect(smtp.received.filter((m) => m.rcptTo.includes(msg.to))).toHaveLength(1);
    const [row] = await rowsTo(msg.to);
    expect(row).toMatchObject({ status: 'sent' });
    // Sent now: the next attempt is a plain duplicate.
    expect(await later.sendEmail(msg)).toEqual({ ok: true, id: row!.id, transport: 'smtp', duplicate: true });
  });

  test('a deferred mail whose first attempt is still sending is retried by its job, not counted as sent', async () => {
    const result = { ok: true as const, id: 'x', transport: 'smtp' as const, duplicate: true, inFlight: true };
    await expect(sendDeferred({ paid: async () => result }, { kind: 'paid', key: 'k', orderId: null, data: {} })).rejects.toThrow(/still sending/);
    await expect(sendDeferred({ paid: async () => ({ ...result, inFlight: false }) }, { kind: 'paid', key: 'k', orderId: null, data: {} })).resolves.toBeUndefined();
  });

  test('header injection through subject, recipient or reply-to is refused and nothing is stored', async () => {
    const sender = mailer(smtp.url);
    const to = `kunde-${randomUUID()}@example.test`;
    const attempts = [
      message({ to, subject: 'Hallo\r\nBcc: victim@example.test' }),
      message({ to, subject: 'Hallo\nBcc: victim@example.test' }),
      message({ to: `${to}\r\nBcc: victim@example.test` }),
      message({ to: `${to}, victim@example.test` }),
      message({ to, replyTo: 'studio@example.test\r\nBcc: victim@example.test' }),
      message({ to: 'not-an-address' }),
    ];
    for (const attempt of attempts) {
      const result = await sender.sendEmail(attempt);
      expect(result).toMatchObject({ ok: false, id: null });
    }
    expect(await rowsTo(to)).toHaveLength(0);
    expect(smtp.received.filter((m) => m.rcptTo.some((r) => r.includes('victim') || r === to))).toHaveLength(0);
  });
});
