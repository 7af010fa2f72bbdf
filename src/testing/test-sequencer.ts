// The order in which vitest starts test files: the slowest first. On two cores (two files at a time) a slow file
// started last runs alone at the end while the other core idles: the PostgreSQL run's crash tests (two minutes)
// and the studio's and the generator's image tests (one and a half each) did. Vitest orders by the durations of
// its own last run where it has them (a developer's machine); a fresh clone (CI) has none, so it went by file
// size. The measured seconds in test-durations.json (files of 5 s and more, the longer of the PGlite and the
// PostgreSQL run; `node scripts/test-durations.mjs` refreshes them from .tmp/vitest.json after `npm test`) put
// the known slow files first; the rest keep vitest's order.
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import durations from './test-durations.json' with { type: 'json' };

const SECONDS: Record<string, number> = durations;

export class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const ordered = await super.sort(files);
    const seconds = (file: TestSpecification) => SECONDS[path.relative(this.ctx.config.root, file.moduleId).split(path.sep).join('/')] ?? 0;
    // Array.prototype.sort is stable: files without a measured time keep vitest's order after the slow ones.
    return [...ordered].sort((a, b) => seconds(b) - seconds(a));
  }
}
