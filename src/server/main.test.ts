// The real start command in a child process: migrations, health, Ctrl-C, and data kept across restarts.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { openDatabase } from './db/client.js';
import { freePort, startShopProcess, waitHealthy } from './test/shop-process.js';

let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'shop-main-'));
});
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

function startShop(env: Record<string, string>) {
  return startShopProcess({ DATA_DIR: dataDir, ...env });
}

test('starts, migrates, stops on Ctrl-C, and a second start finds the same data', { timeout: 90_000 }, async () => {
  const port = await freePort();
  const first = startShop({ PORT: String(port) });
  await waitHealthy(port, first);
  expect(first.output()).toMatch(/"applied":\["0001_initial",/);
  // Development without ADMIN_EMAIL: a staff account is made and its password shown once.
  const password = /password: (\S+)/.exec(first.output())?.[1];
  expect(password).toBeTruthy();
  const login = await fetch(`http://127.0.0.1:${port}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@localhost.test', password }),
  });
  expect(login.status).toBe(200);
  const stopped = first.exited;
  first.child.kill('SIGINT');
  expect(await stopped).toBe(0);
  expect(first.output()).toContain('shutting down');

  // Write into the embedded database while the shop is down, as a stand-in for data from the first run.
  const db = await openDatabase({ kind: 'pglite', dataDir: path.join(dataDir, 'db') });
  await db.db.execute(
    `insert into outgoing_mail (id, template, language, to_address, from_address, subject, html, text, transport, status)
     values ('7d0f3b52-7a41-4c7e-9d1a-2f7b8a0c1e11', 'test', 'de', 'kunde@example.de', 'shop@example.de', 'Beständig', '<p>x</p>', 'x', 'outbox', 'outbox')` as never,
  );
  await db.close();

  const second = startShop({ PORT: String(port) });
  await waitHealthy(port, second);
  expect(second.output()).not.toContain('"applied"');
  expect(second.output()).not.toContain('password:');
  const outbox = await (await fetch(`http://127.0.0.1:${port}/api/dev/outbox?to=kunde@example.de`)).json();
  expect(outbox.mails.map((m: { subject: string }) => m.subject)).toEqual(['Beständig']);
  const done = second.exited;
  second.child.kill('SIGTERM');
  expect(await done).toBe(0);
});

test('a wrong setting stops the start with a message naming it', { timeout: 30_000 }, async () => {
  const shop = startShop({ PORT: 'abc', SMTP_URL: 'http://nope' });
  expect(await shop.exited).toBe(1);
  expect(shop.output()).toMatch(/PORT: .*"abc"/);
  expect(shop.output()).toMatch(/SMTP_URL: must be an smtp/);
});
