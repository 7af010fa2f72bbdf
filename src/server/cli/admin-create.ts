// `npm run admin:create -- --email a@b.de [--password …] [--name …]`: creates a staff account.
// Without --password it asks (input hidden), so the password does not end up in the shell history.
import { createInterface } from 'node:readline/promises';
import { Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config.js';
import { openDatabase } from '../db/client.js';
import { StaffAccountError, createAuthService } from '../modules/auth/auth-service.js';

async function ask(question: string, hidden: boolean): Promise<string> {
  let muted = false;
  const output = new Writable({
    write(chunk, _encoding, callback) {
      if (!muted) process.stdout.write(chunk);
      callback();
    },
  });
  const rl = createInterface({ input: process.stdin, output, terminal: process.stdin.isTTY ?? false });
  const answer = rl.question(question);
  muted = hidden;
  const value = await answer;
  rl.close();
  if (hidden) process.stdout.write('\n');
  return value.trim();
}

try {
  const { values } = parseArgs({ options: { email: { type: 'string' }, password: { type: 'string' }, name: { type: 'string' } } });
  const config = loadConfig();
  const email = values.email ?? (await ask('E-mail: ', false));
  const password = values.password ?? (await ask('Password (at least 12 characters): ', true));
  const db = await openDatabase(config.database);
  await db.migrate();
  try {
    const staff = await createAuthService({ db: db.db, now: () => new Date() }).createStaff({ email, password, name: values.name ?? null, role: 'admin' });
    console.log(`staff account created: ${staff.email}`);
  } finally {
    await db.close();
  }
} catch (error) {
  console.error(error instanceof ConfigError || error instanceof StaffAccountError ? error.message : error);
  process.exit(1);
}
