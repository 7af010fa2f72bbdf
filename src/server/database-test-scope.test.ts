// CI's PostgreSQL run repeats only the test files that can reach a database (src/testing/database-tests.ts).
// This file reaches one only through an import the rule cannot see, so it shows the other half of the rule:
// such a file cannot open a database at all, in any run, and so is never skipped silently.
import path from 'node:path';
import { expect, test } from 'vitest';
import { databaseTestFiles } from '../testing/database-tests.js';
import { PROJECT_ROOT } from './paths.js';

test('the files that open databases are repeated on PostgreSQL, the image and page tests are not', () => {
  const files = databaseTestFiles(PROJECT_ROOT);
  // Through the helpers that open databases and build apps, through a shop process, and the PostgreSQL-only ones.
  expect(files).toEqual(expect.arrayContaining(['src/server/modules/orders/orders.test.ts', 'src/server/main.test.ts', 'src/server/modules/orders/payment-events.pg.test.ts', 'src/server/db/migrate.test.ts']));
  expect(files).not.toContain('src/studio/render.test.ts');
  expect(files).not.toContain('src/web/pages/order/crop-geometry.test.ts');
  expect(files).not.toContain(path.relative(PROJECT_ROOT, import.meta.filename));
});

test('a test file the rule does not see reach a database cannot open one', async () => {
  const helper = ['./test/databases', 'js'].join('.');
  const { testDatabases, openPostgresTestDatabase } = (await import(helper)) as { testDatabases: () => unknown; openPostgresTestDatabase: () => Promise<unknown> };
  expect(() => testDatabases()).toThrow(/database-test-scope\.test\.ts opens a test database.*src\/testing\/database-tests\.ts/);
  await expect(openPostgresTestDatabase()).rejects.toThrow(/src\/testing\/database-tests\.ts/);
});
