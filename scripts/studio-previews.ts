// `npx tsx scripts/studio-previews.ts [dir]`: studio drafts of nine different people (src/testing/people.ts) in
// every format, on the backdrops a plan would pick, as one contact sheet per format and the single drafts.
// For looking at what the studio makes before and after a change.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { OUTPUT_FORMAT_KEYS } from '../src/studio/formats.js';
import { createTestInference } from '../src/studio/test/inference.js';
import { assessPhoto } from '../src/studio/quality-gate.js';
import { renderDraft, type DraftSpec } from '../src/studio/render.js';
import { customerFace } from '../src/studio/test/faces.js';
import { peopleCorpus, tightGroupCrop } from '../src/testing/people.js';

const dir = path.resolve(process.argv[2] ?? 'tmp/studio-previews');
mkdirSync(dir, { recursive: true });
const inference = createTestInference();
const BACKDROPS: DraftSpec['backdrop'][] = [
  { kind: 'studio', variant: 0 },
  { kind: 'studio', variant: 2 },
  { kind: 'studio', variant: 3 },
  { kind: 'creative', variant: 3 },
];
const TILE = 300;
try {
  const people = await peopleCorpus();
  const faces = await Promise.all(
    people.map(async ({ photo, neighbours }) => {
      // A group crop is refused at upload (several faces; the gate's face is the largest, perhaps a friend at
      // the edge); here the face nearest the crop's middle stands for the customer.
      if (neighbours) return customerFace(photo, inference);
      return (await assessPhoto(photo, inference)).face ?? customerFace(photo, inference);
    }),
  );
  for (const format of OUTPUT_FORMAT_KEYS) {
    const tiles: { input: Buffer; left: number; top: number }[] = [];
    let tileHeight = TILE;
    for (const [row, person] of people.entries()) {
      tiles.push({ input: await sharp(person.photo).resize(TILE, TILE, { fit: 'contain', background: '#ffffff' }).png().toBuffer(), left: 0, top: row * TILE });
      for (const [column, backdrop] of BACKDROPS.entries()) {
        const started = performance.now();
        const draft = await renderDraft({ photo: person.photo, face: faces[row]!, spec: { format, backdrop, style: column % 2 ? 'casual' : 'professional' }, inference });
        const ms = performance.now() - started;
        writeFileSync(path.join(dir, `${format}-${person.name}-${backdrop.kind}${backdrop.variant}.jpg`), draft.buffer);
        const tile = await sharp(draft.buffer).resize(TILE, TILE, { fit: 'contain', background: '#ffffff' }).png().toBuffer();
        tiles.push({ input: tile, left: (column + 1) * TILE, top: row * TILE });
        if (row === 0 && column === 0) console.log(`${format}: ${Math.round(ms)} ms per draft (first)`);
      }
      tileHeight = TILE;
    }
    await sharp({ create: { width: TILE * (BACKDROPS.length + 1), height: tileHeight * people.length, channels: 3, background: '#ffffff' } })
      .composite(tiles)
      .png()
      .toFile(path.join(dir, `sheet-${format}.png`));
  }
  // Party photos cut tighter, as a customer crops them until the gate finds no other face: the photo and its
  // portrait draft side by side.
  const tight: { input: Buffer; left: number; top: number }[] = [];
  for (const [row, file] of ['sample3', 'sample6', 'sample1', 'sample5', 'sample2'].entries()) {
    const photo = await tightGroupCrop(file);
    const face = await customerFace(photo, inference);
    const draft = await renderDraft({ photo, face, spec: { format: 'portrait', backdrop: BACKDROPS[2]!, style: 'professional' }, inference });
    for (const [column, image] of [photo, draft.buffer].entries()) {
      tight.push({ input: await sharp(image).resize(TILE, TILE, { fit: 'contain', background: '#ffffff' }).png().toBuffer(), left: column * TILE, top: row * TILE });
    }
  }
  await sharp({ create: { width: TILE * 2, height: TILE * 5, channels: 3, background: '#ffffff' } }).composite(tight).png().toFile(path.join(dir, 'sheet-tight-crops.png'));
  console.log(`drafts and contact sheets in ${dir}`);
} finally {
  await inference.close();
}
