// How the tests that read the source tree see a file's imports: the import rules (src/architecture.test.ts) and
// which test files reach a database (src/testing/database-tests.ts).
import path from 'node:path';
import ts from 'typescript';

/** Import specifiers as written: import, export … from, import() and import types. */
export function importSpecifiers(text: string): string[] {
  return ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName);
}

/**
 * Resolves a relative import of `from` (".js" written for ".ts"/".tsx") to the file that exists, or to the
 * written path when none does; null for a package. Paths use "/" and are relative to the same folder as `from`.
 */
export function resolveImport(from: string, specifier: string, exists: (file: string) => boolean): string | null {
  if (!specifier.startsWith('.')) return null;
  const target = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
  const candidates = [target, target.replace(/\.js$/, '.ts'), target.replace(/\.js$/, '.tsx'), `${target}.ts`, `${target}.tsx`, `${target}/index.ts`];
  return candidates.find(exists) ?? target;
}
