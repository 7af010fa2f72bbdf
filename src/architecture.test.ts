// The import rules of docs/decisions/012-code-shape.md, checked on every file under src/:
//   domain  – pure rules; imports only itself.
//   i18n    – every text; imports itself and domain.
//   studio  – the photo pipeline; runs without a server: itself and domain.
//   web     – the browser app; never the server: itself, domain, i18n.
//   server  – everything else; of the web app only its server-rendering entry (src/web/entry-server.tsx).
//   testing – test support shared by every layer; imported by tests only.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { importSpecifiers, resolveImport } from './testing/source-imports.js';

const SRC = path.dirname(fileURLToPath(import.meta.url));

type Layer = 'domain' | 'i18n' | 'studio' | 'web' | 'server' | 'testing';

const ALLOWED: Record<Layer, readonly Layer[]> = {
  domain: ['domain'],
  i18n: ['i18n', 'domain'],
  studio: ['studio', 'domain'],
  web: ['web', 'domain', 'i18n'],
  server: ['server', 'domain', 'i18n', 'studio', 'web'],
  testing: ['testing', 'domain'],
};

/** The only file of src/web the server may import. */
const WEB_ENTRY_FOR_SERVER = 'web/entry-server.tsx';

function layerOf(file: string): Layer | null {
  const top = file.split('/')[0];
  return top && top in ALLOWED ? (top as Layer) : null;
}

/** Tests and the files that exist only for them. */
function isTestSupport(file: string): boolean {
  return /\.test\.tsx?$/.test(file) || file.startsWith('testing/') || file.includes('/test/') || path.basename(file).startsWith('test-');
}

export interface SourceFile {
  /** Relative to src/, with "/" separators. */
  file: string;
  /** Import specifiers as written. */
  imports: string[];
}

export function violations(files: SourceFile[]): string[] {
  const known = new Set(files.map((f) => f.file));
  const found: string[] = [];
  for (const { file, imports } of files) {
    const from = layerOf(file);
    if (!from) continue;
    for (const specifier of imports) {
      const target = resolveImport(file, specifier, (f) => known.has(f));
      if (target === null) continue;
      if (target.startsWith('../')) {
        found.push(`${file} imports ${specifier}, outside src/`);
        continue;
      }
      const to = layerOf(target);
      if (!to) continue;
      const testing = to === 'testing' || (isTestSupport(target) && !target.startsWith(`${from}/`));
      if (isTestSupport(target) && !isTestSupport(file)) found.push(`${file} (not a test) imports test support ${target}`);
      else if (to === 'web' && from === 'server' && target !== WEB_ENTRY_FOR_SERVER) found.push(`${file} imports ${target}: the server may import only ${WEB_ENTRY_FOR_SERVER} of the web app`);
      else if (!ALLOWED[from].includes(to) && !(testing && isTestSupport(file))) found.push(`${file} (${from}) imports ${target} (${to})`);
    }
  }
  return found;
}

function sourceFiles(dir: string): SourceFile[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts'))
    .map((entry) => {
      const full = path.join(entry.parentPath, entry.name);
      return { file: path.relative(dir, full).split(path.sep).join('/'), imports: importSpecifiers(readFileSync(full, 'utf8')) };
    });
}

test('every file under src/ keeps the import rules', () => {
  const files = sourceFiles(SRC);
  expect(files.length).toBeGreaterThan(200);
  expect(violations(files)).toEqual([]);
});

test('the check finds each kind of broken rule', () => {
  const file = (name: string, ...imports: string[]): SourceFile => ({ file: name, imports });
  const tree = [
    file('domain/a.ts', '../server/app.js'),
    file('domain/b.ts', '../i18n/format.js'),
    file('i18n/c.ts', '../web/app.js'),
    file('studio/d.ts', '../server/paths.js'),
    file('studio/e.test.ts', '../web/app.js'),
    file('web/f.tsx', '../server/app.js'),
    file('server/g.ts', '../web/app.js'),
    file('server/h.ts', '../web/entry-server.js'),
    file('server/i.ts', '../testing/images.js'),
    file('server/j.test.ts', '../testing/images.js', '../web/entry-server.js', '../studio/plan.js'),
    file('web/k.test.tsx', '../testing/images.js', '../i18n/format.js'),
    file('testing/images.ts', '../server/paths.js'),
    file('domain/l.ts', 'node:path', 'react'),
    file('server/app.ts'),
    file('server/paths.ts'),
    file('web/app.tsx'),
    file('web/entry-server.tsx'),
    file('i18n/format.ts'),
    file('studio/plan.ts'),
  ];
  expect(violations(tree)).toEqual([
    'domain/a.ts (domain) imports server/app.ts (server)',
    'domain/b.ts (domain) imports i18n/format.ts (i18n)',
    'i18n/c.ts (i18n) imports web/app.tsx (web)',
    'studio/d.ts (studio) imports server/paths.ts (server)',
    'studio/e.test.ts (studio) imports web/app.tsx (web)',
    'web/f.tsx (web) imports server/app.ts (server)',
    'server/g.ts imports web/app.tsx: the server may import only web/entry-server.tsx of the web app',
    'server/i.ts (not a test) imports test support testing/images.ts',
    'testing/images.ts (testing) imports server/paths.ts (server)',
  ]);
});

// The catalogues (JSON) and stylesheets (CSS) are data and are not counted.
test('no source file under src/ is longer than 400 lines, tests included', () => {
  const long = readdirSync(SRC, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .map((entry) => path.relative(SRC, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .map((file) => ({ file, lines: readFileSync(path.join(SRC, file), 'utf8').split('\n').length - 1 }))
    .filter(({ lines }) => lines > 400);
  expect(long).toEqual([]);
});

/** Groups of files that import each other in a circle (Tarjan's strongly connected components of more than one file). */
export function importCircles(files: SourceFile[]): string[][] {
  const known = new Set(files.map((f) => f.file));
  const edges = new Map(files.map(({ file, imports }) => [file, imports.map((s) => resolveImport(file, s, (f) => known.has(f))).filter((t): t is string => t !== null && known.has(t))]));
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  let next = 0;
  const visit = (file: string) => {
    index.set(file, next);
    low.set(file, next++);
    stack.push(file);
    onStack.add(file);
    for (const target of edges.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file)!, index.get(target)!));
    }
    if (low.get(file) === index.get(file)) {
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        group.push(member);
      } while (member !== file);
      if (group.length > 1) circles.push(group.sort());
    }
  };
  for (const { file } of files) if (!index.has(file)) visit(file);
  return circles;
}

test('no two files of the app import each other, directly or around a circle (tests and test support left out)', () => {
  const production = sourceFiles(SRC).filter(({ file }) => !isTestSupport(file));
  expect(importCircles(production)).toEqual([]);
  const file = (name: string, ...imports: string[]): SourceFile => ({ file: name, imports });
  expect(importCircles([file('a/x.ts', './y.js'), file('a/y.ts', '../b/z.js'), file('b/z.ts', '../a/x.js'), file('b/w.ts', '../a/x.js')])).toEqual([['a/x.ts', 'a/y.ts', 'b/z.ts']]);
});
