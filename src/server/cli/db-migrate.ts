// `npm run db:migrate`: applies pending migrations to the configured database and exits.
import { ConfigError, loadConfig } from '../config.js';
import { openDatabase } from '../db/client.js';

try {
  const config = loadConfig();
  const db = await openDatabase(config.database);
  const applied = await db.migrate();
  console.log(applied.length ? `applied: ${applied.join(', ')}` : 'database is up to date');
  await db.close();
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
}
