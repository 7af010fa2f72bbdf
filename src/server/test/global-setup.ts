// Migrates each test database once; every test file then starts from a copy of that template.
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../db/client.js';
import { PROJECT_ROOT } from '../paths.js';
import { databaseTestFiles } from '../../testing/database-tests.js';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
    pgTemplate: { url: string; template: string } | null;
    /** Test files that can reach a database (src/testing/database-tests.ts), relative to the project root. */
    databaseTestFiles: string[];
    /** Where this run's server bundle goes when a test first starts the built shop (shop-process.ts). */
    shopBundleDir: string;
  }
}

export function databaseUrlWith(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

export default async function setup(project: TestProject) {
  const dir = path.join(PROJECT_ROOT, '.tmp', 'test');
  await mkdir(dir, { recursive: true });
  const templateFile = path.join(dir, `pglite-template-${process.pid}.tar`);
  const embedded = await openDatabase({ kind: 'pglite', dataDir: null });
  await embedded.migrate();
  const blob = await embedded.dumpDataDir!();
  await writeFile(templateFile, Buffer.from(await blob.arrayBuffer()));
  await embedded.close();
  project.provide('pgliteTemplate', templateFile);
  project.provide('databaseTestFiles', databaseTestFiles(PROJECT_ROOT));
  const shopBundleDir = path.join(dir, `shop-bundle-${process.pid}`);
  project.provide('shopBundleDir', shopBundleDir);

  const url = process.env.DATABASE_URL;
  let pgTemplate: { url: string; template: string } | null = null;
  if (url) {
    const template = `shop_tpl_${process.pid}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`drop database if exists ${template}`);
    await admin.query(`create database ${template}`);
    await admin.end();
    const db = await openDatabase({ kind: 'postgres', url: databaseUrlWith(url, template), poolSize: 1 });
    await db.migrate();
    await db.close();
    pgTemplate = { url, template };
  }
  project.provide('pgTemplate', pgTemplate);

  return async () => {
    await rm(templateFile, { force: true });
    await rm(shopBundleDir, { recursive: true, force: true });
    if (pgTemplate) {
      const admin = new pg.Client({ connectionString: pgTemplate.url });
      await admin.connect();
      const { rows } = await admin.query<{ datname: string }>(
        `select datname from pg_database where datname = $1 or datname like $2`,
        [pgTemplate.template, `shop_t_${process.pid}_%`],
      );
      for (const row of rows) await admin.query(`drop database if exists ${row.datname} with (force)`);
      await admin.end();
    }
  };
}
