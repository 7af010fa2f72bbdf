import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { DatabaseHandle } from '../../db/client.js';
import { contactMessages, outgoingMail } from '../../db/schema.js';
import { buildTestApp, type TestApp } from '../../test/app.js';
import { testDatabases } from '../../test/databases.js';

describe.each(testDatabases())('contact form on $name', (testDb) => {
  let db: DatabaseHandle;
  let t: TestApp;
  beforeAll(async () => {
    db = await testDb.open();
    t = await buildTestApp(db, { SUPPORT_EMAIL: 'hilfe@example.de' });
  });
  afterAll(async () => {
    await t.close();
    await db.close();
  });

  const send = (payload: object, remoteAddress = '10.90.0.1') => t.app.inject({ method: 'POST', url: '/api/contact', payload, remoteAddress });

  test('the server enforces the spec rules again, per field', async () => {
    const empty = await send({ name: '', email: '', message: '' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.fields).toEqual({ name: 'nameRequired', email: 'emailRequired', message: 'messageRequired' });
    const suspicious = await send({ name: 'Max', email: 'max@example.de', message: 'Hallo <script>alert(1)</script>' });
    expect(suspicious.json().error.fields).toEqual({ message: 'suspiciousContent' });
    expect(await db.db.select().from(contactMessages)).toEqual([]);
  });

  test('a valid message is stored, cut at 2000 characters, and mailed to support with the sender as reply address', async () => {
    const response = await send({ name: '  Erika Muster ', email: 'Erika@Example.de', message: `Ich habe eine Frage. ${'x'.repeat(2500)}`, language: 'en' });
    expect(response.statusCode).toBe(201);
    const [stored] = await db.db.select().from(contactMessages).where(eq(contactMessages.email, 'erika@example.de'));
    expect(stored).toMatchObject({ name: 'Erika Muster', status: 'new', language: 'en' });
    expect(stored!.message).toHaveLength(2000);
    const [mail] = await db.db.select().from(outgoingMail).where(eq(outgoingMail.template, 'contact-message'));
    expect(mail).toMatchObject({ toAddress: 'hilfe@example.de', subject: 'Kontaktanfrage von Erika Muster' });
  });

  test('more than 5 messages in 15 minutes from one address are refused', async () => {
    for (let i = 0; i < 5; i++) expect((await send({ name: 'Spam', email: 'a@b.de', message: 'Nachricht Nummer ' + i }, '10.91.0.1')).statusCode).toBe(201);
    const sixth = await send({ name: 'Spam', email: 'a@b.de', message: 'Nachricht Nummer 6' }, '10.91.0.1');
    expect(sixth.statusCode).toBe(429);
    expect(sixth.json().error.code).toBe('rateLimited');
  });
});
