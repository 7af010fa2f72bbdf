// Which test files can reach a database: CI's second run (.ci/run, TEST_ONLY_POSTGRES=1; vitest.config.ts) runs only these on
// PostgreSQL, as its first run did every test on PGlite and a file that never reaches a database would only
// repeat itself. A file reaches one when it, or anything it imports under src/ (statically or with import()),
//   - lives under src/server/db/ or src/server/test/ (the database client and the test helpers that open
//     databases, build apps and start shops; not src/server/test/generator/, stand-ins of outside servers), or
//   - names DATABASE_URL (a child process it starts takes the database from its environment).
// The rule errs towards running a file, and src/server/test/databases.ts refuses to open a database for a file
// this rule leaves out, so a test that reaches one some other way fails in the first run instead of being
// skipped silently in the second.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { importSpecifiers, resolveImport } from './source-imports.js';

const REACHES = [/^src\/server\/db\//, /^src\/server\/test\/(?!generator\/)/];

function testFiles(root: string, dir = 'src'): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) found.push(...testFiles(root, rel));
    else if (/\.test\.tsx?$/.test(entry.name)) found.push(rel);
  }
  return found;
}

/** Test files (relative to root, "/" separators) that can reach a database, sorted. */
export function databaseTestFiles(root: string): string[] {
  const edges = new Map<string, { named: boolean; targets: string[] }>();
  const next = (file: string) => {
    if (!edges.has(file)) {
      const text = readFileSync(path.join(root, file), 'utf8');
      const exists = (f: string) => existsSync(path.join(root, f)) && statSync(path.join(root, f)).isFile();
      const targets = importSpecifiers(text)
        .map((s) => resolveImport(file, s, exists))
        .filter((t): t is string => t !== null && t.startsWith('src/') && exists(t));
      // This file names the variable only to look for it.
      edges.set(file, { named: file !== 'src/testing/database-tests.ts' && text.includes('DATABASE_URL'), targets });
    }
    return edges.get(file)!;
  };
  const reaches = (start: string) => {
    const seen = new Set([start]);
    const todo = [start];
    while (todo.length > 0) {
      const file = todo.pop()!;
      if (REACHES.some((r) => r.test(file))) return true;
      const { named, targets } = next(file);
      if (named) return true;
      for (const t of targets.filter((t) => !seen.has(t))) {
        seen.add(t);
        todo.push(t);
      }
    }
    return false;
  };
  return testFiles(root).filter(reaches).sort();
}
