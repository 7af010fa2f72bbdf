// `npx tsx scripts/studio-edge-measure.ts [people|all] [formats] [dir]`: issue 54's edge figures
// (docs/studio/edges.md) for the people of src/testing/people.ts (the looser photos and the selfies), each format on
// two studio backdrops: the rim's share of the judged band, the halo's share of the see-through edge and the pieces
// apart from the person (src/studio/test/edge-measure.ts). With a folder, each draft is written there with its rim
// and halo pixels in magenta.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { drawBackdrop } from '../src/studio/backdrops.js';
import type { OutputFormatKey } from '../src/studio/formats.js';
import { createTestInference } from '../src/studio/test/inference.js';
import { renderDraft } from '../src/studio/render.js';
import { customerFace } from '../src/studio/test/faces.js';
import { measureEdge } from '../src/studio/test/edge-measure.js';
import { peopleCorpus, selfieCorpus } from '../src/testing/people.js';

const only = process.argv[2] && process.argv[2] !== 'all' ? process.argv[2].split(',') : undefined;
const formats = (process.argv[3]?.split(',') ?? ['portrait', 'square', 'application']) as OutputFormatKey[];
const dir = process.argv[4] ? path.resolve(process.argv[4]) : null;
if (dir) mkdirSync(dir, { recursive: true });
const inference = createTestInference();
try {
  const people = [...(await peopleCorpus()), ...(await selfieCorpus())].filter((person) => !only || only.includes(person.name));
  for (const person of people) {
    const face = await customerFace(person.photo, inference);
    for (const format of formats) {
      for (const variant of [0, 3]) {
        const backdrop = { kind: 'studio', variant } as const;
        const draft = await renderDraft({ photo: person.photo, face, spec: { format, backdrop, style: 'professional' }, inference, withMask: true });
        const { width, height } = draft;
        const output = await sharp(draft.buffer).removeAlpha().raw().toBuffer();
        const edge = measureEdge({ output, backdrop: await drawBackdrop('studio', variant, width, height), photo: draft.mask!.photo, alpha: draft.mask!.alpha, segmented: draft.mask!.segmented, width, height });
        console.log(`${person.name.padEnd(22)} ${format.padEnd(12)} backdrop ${variant}  rim ${(edge.fringeShare * 100).toFixed(2)} % (${edge.fringe} of ${edge.band} px)  halo ${(edge.haloShare * 100).toFixed(2)} % (${edge.halo} of ${edge.faint} px)  apart ${(edge.apart * 100).toFixed(3)} %`);
        if (!dir) continue;
        const marked = Buffer.from(output);
        for (let i = 0; i < edge.where.length; i++) if (edge.where[i]) marked.set([255, 0, 255], i * 3);
        await sharp(marked, { raw: { width, height, channels: 3 } }).png().toFile(path.join(dir, `${person.name}-${format}-${variant}.png`));
      }
    }
  }
} finally {
  await inference.close();
}
