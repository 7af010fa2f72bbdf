// Used only to draft a new migration from the schema. The numbered SQL files in src/server/db/migrations are the
// source of truth and are applied by our own migrator (migrate.ts); drizzle-kit never touches a database here.
// drizzle-kit/meta holds its journal and its snapshot of the schema after the latest migration (NNNN_snapshot.json,
// with the migration's number). To add migration NNNN:
//   1. change schema.ts, then `npx drizzle-kit generate --name <name>`: it writes the difference between schema.ts
//      and that snapshot to drizzle-kit/NNNN_<name>.sql (git-ignored), numbered one after the latest migration,
//      and adds meta/NNNN_snapshot.json and an entry NNNN_<name> to meta/_journal.json;
//   2. review that SQL (adding what drizzle cannot express: extensions, functions, unlogged tables, data changes)
//      and copy it to migrations/NNNN_<name>.sql, keeping the name;
//   3. keep and commit the new snapshot and _journal.json with it: the next generate starts from that snapshot.
// A migration schema.ts cannot express still takes steps 1 to 3, with `generate --custom --name <name>` (empty SQL).
// drizzle-kit-snapshot.test.ts fails while schema.ts has changes the latest snapshot lacks, or the journal does not
// end with the latest migration. Snapshots 0000-0004 are of migrations 0001-0005; 0018 was made from schema.ts, which
// declares exactly what the migrations build (schema-matches-migrations.pg.test.ts reads a migrated database back).
import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: './src/server/db/schema.ts',
  out: './src/server/db/drizzle-kit',
});
