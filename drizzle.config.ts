// Used only to draft new migration SQL from the schema (`npx drizzle-kit generate --name x`, then copy the
// new SQL from src/server/db/drizzle-kit into migrations/ with the next number; meta/ holds its snapshots).
// the SQL files in src/server/db/migrations are the source of truth and are applied by our migrator.
import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: './src/server/db/schema.ts',
  out: './src/server/db/drizzle-kit',
});
