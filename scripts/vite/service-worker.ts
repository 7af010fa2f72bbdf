// Builds dist/client/sw.js from src/web/sw/service-worker.js: the version is a hash of everything the
// worker caches, so every build that changes a file makes browsers install a new worker (and show the
// update notice). The shell is the entry script with its static imports and styles, plus the icons.
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';

export const SW_FILE_NAME = 'sw.js';

function publicFiles(dir: string, prefix = ''): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? publicFiles(full, `${prefix}/${name}`) : [`${prefix}/${name}`];
  });
}

interface ChunkLike {
  type: 'chunk';
  fileName: string;
  isEntry: boolean;
  imports: string[];
  viteMetadata?: { importedCss: Set<string> };
}

export function serviceWorker(options: { source: string; publicDir: string; extraShell: string[] }): Plugin {
  return {
    name: 'shop-service-worker',
    apply: 'build',
    generateBundle(_outputOptions, bundle) {
      const chunks = new Map<string, ChunkLike>();
      for (const file of Object.values(bundle)) if (file.type === 'chunk') chunks.set(file.fileName, file as unknown as ChunkLike);
      const shell = new Set<string>();
      const visit = (chunk: ChunkLike) => {
        if (shell.has(`/${chunk.fileName}`)) return;
        shell.add(`/${chunk.fileName}`);
        for (const css of chunk.viteMetadata?.importedCss ?? []) shell.add(`/${css}`);
        for (const imported of chunk.imports) {
          const next = chunks.get(imported);
          if (next) visit(next);
        }
      };
      for (const chunk of chunks.values()) if (chunk.isEntry) visit(chunk);
      for (const file of publicFiles(options.publicDir)) shell.add(file);
      for (const file of options.extraShell) shell.add(file);
      const files = [...shell].sort();

      const hash = createHash('sha256');
      for (const file of Object.values(bundle)) {
        hash.update(file.fileName);
        hash.update(file.type === 'chunk' ? file.code : typeof file.source === 'string' ? file.source : Buffer.from(file.source));
      }
      for (const file of publicFiles(options.publicDir)) hash.update(readFileSync(path.join(options.publicDir, file)));
      const template = readFileSync(options.source, 'utf8');
      hash.update(template);
      const version = hash.digest('hex').slice(0, 16);

      const code = template.replace("'__SW_VERSION__'", JSON.stringify(version)).replace('/* __SW_SHELL__ */ []', JSON.stringify(files));
      if (code.includes('__SW_')) this.error('service worker template: a placeholder was not replaced');
      this.emitFile({ type: 'asset', fileName: SW_FILE_NAME, source: code });
    },
  };
}
