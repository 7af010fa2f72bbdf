import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { queryRows, type DatabaseHandle } from './client.js';
import { loadMigrations } from './migrate.js';
import { testDatabases } from '../test/databases.js';

test('migration files are numbered without gaps', async () => {
  const migrations = await loadMigrations();
  expect(migrations.length).toBeGreaterThan(0);
  migrations.forEach((m, i) => expect(Number(m.version)).toBe(i + 1));
});

describe.each(testDatabases())('migrations on $name', (testDb) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await testDb.open();
  });
  afterAll(() => handle.close());

  test('the template is fully migrated and migrating again changes nothing', async () => {
    expect(await handle.migrate()).toEqual([]);
    const rows = await queryRows<{ table_name: string }>(
      handle.db,
      sql`select table_name from information_schema.tables where table_schema = 'public' order by table_name`,
    );
    expect(rows.map((r) => r.table_name)).toEqual(
      expect.arrayContaining(['orders', 'order_uploads', 'generated_images', 'order_history', 'payment_events', 'staff_users', 'staff_sessions', 'contact_messages', 'outgoing_mail', 'audit_log', 'jobs', 'schema_migrations']),
    );
  });

  test('the database refuses an unknown order status', async () => {
    await expect(
      handle.db.execute(sql`insert into orders (id, order_number, status) values (gen_random_uuid(), 'BF-TEST0001', 'finished')`),
    ).rejects.toThrow();
  });
});
