// `npx tsx scripts/studio-order-sheet.ts [dir] [people] [folder]`: an order's whole draft set (a pro package: the plan's 10 drafts)
// for several people, made from their phone selfie and a looser photo of them (src/testing/people.ts), with each
// draft's identity distance to the person's own photos (the face recognition net, as the generator's output gate
// measures it; one person's photos lie 0.10–0.46 apart, the limit is 0.5). One contact sheet row per person.
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { OUTPUT_FORMATS, OUTPUT_FORMAT_KEYS } from '../src/studio/formats.js';
import { photoFills } from '../src/studio/framing.js';
import { compareIdentity } from '../src/studio/identity.js';
import { createTestInference } from '../src/studio/test/inference.js';
import { planDrafts } from '../src/studio/plan.js';
import { assessPhoto } from '../src/studio/quality-gate.js';
import { renderDraft } from '../src/studio/render.js';
import { FRANCK_FRAMES } from '../src/testing/images.js';
import { peopleCorpus, selfieCorpus } from '../src/testing/people.js';
import { FIXTURES_DIR } from '../src/testing/project-root.js';

const dir = path.resolve(process.argv[2] ?? 'tmp/studio-order-sheet');
const names = (process.argv[3] ?? 'astronaut,hopper,sample3,sample6,sample1,sample4').split(',');
/**
 * Optional: a folder of more people's photos named <person>_<n>.<jpg|png> (several real photos each, as an order
 * has them); `franck` takes the five frames of test/fixtures/faces. Each is sent as an upload arrives (1024 px on
 * its short side at least).
 */
const extraDir = process.argv[4];
mkdirSync(dir, { recursive: true });
const inference = createTestInference();
const TILE = 220;
const LABEL = 22;
try {
  const [loose, selfies] = await Promise.all([peopleCorpus(), selfieCorpus()]);
  const rows: { input: Buffer; left: number; top: number }[] = [];
  for (const [row, name] of names.entries()) {
    const photos = await photosOf(name, loose, selfies);
    const assessed = await Promise.all(photos.map(async (person, n) => ({ person, n, report: await assessPhoto(person.photo, inference) })));
    // As the shop takes them: a photo the gate refuses (a group crop with a friend's whole face) is not the order's.
    const checked = await Promise.all(
      assessed.filter(({ report }) => report.verdict !== 'refused').map(async ({ person, n, report }) => {
        const face = report.face!;
        const descriptor = report.descriptor;
        const meta = await sharp(person.photo).metadata();
        const fills = Object.fromEntries(OUTPUT_FORMAT_KEYS.map((key) => [key, photoFills(face, { width: meta.width!, height: meta.height! }, OUTPUT_FORMATS[key])]));
        return { id: `${name}-${n}`, photo: person.photo, face, descriptor, verdict: report.verdict === 'ok' ? ('ok' as const) : ('warning' as const), fills };
      }),
    );
    const references = checked.map((c) => c.descriptor).filter((d): d is number[] => Array.isArray(d));
    const plan = planDrafts({ package: 'pro', extras: [], style: 'professional', location: 'studio', outfit: null, photos: checked.map(({ id, verdict, fills }) => ({ id, verdict, fills })), generation: 0 });
    const line: string[] = [];
    for (const [column, draft] of plan.entries()) {
      const source = checked.find((c) => c.id === draft.photoId)!;
      const rendered = await renderDraft({ photo: source.photo, face: source.face, spec: draft.spec, inference });
      writeFileSync(path.join(dir, `${name}-${column + 1}-${draft.spec.format}.jpg`), rendered.buffer);
      const verdict = await assessPhoto(rendered.buffer, inference, { analysisLongSidePx: 640 });
      const distance = verdict.descriptor ? compareIdentity(verdict.descriptor, references)!.distance : null;
      const label = `photo ${Number(draft.photoId.split('-').at(-1)) + 1} ${draft.spec.format} v${draft.spec.variation ?? 0} ${distance === null ? 'no face' : distance.toFixed(2)}`;
      line.push(label);
      const tile = await sharp(rendered.buffer).resize(TILE, TILE, { fit: 'contain', background: '#ffffff' }).png().toBuffer();
      const text = Buffer.from(`<svg width="${TILE}" height="${LABEL}"><text x="4" y="16" font-size="14" font-family="sans-serif">${label}</text></svg>`);
      rows.push({ input: tile, left: (column + 2) * TILE, top: row * (TILE + LABEL) }, { input: text, left: (column + 2) * TILE, top: row * (TILE + LABEL) + TILE });
    }
    console.log(`${name}: photos ${assessed.map(({ n, report }) => `${n + 1} ${report.verdict} ${report.issues.map((i) => i.code).join(',')}`).join('; ')}`);
    // The order's photos, up to two of them, in the first two columns.
    for (const [n, c] of checked.slice(0, 2).entries()) rows.push({ input: await sharp(c.photo).resize(TILE, TILE, { fit: 'contain', background: '#ffffff' }).png().toBuffer(), left: n * TILE, top: row * (TILE + LABEL) });
    console.log(`${name}: ${line.join(' | ')}`);
  }
  await sharp({ create: { width: TILE * 12, height: (TILE + LABEL) * names.length, channels: 3, background: '#ffffff' } })
    .composite(rows)
    .png()
    .toFile(path.join(dir, 'sheet.png'));
  console.log(`sheet in ${dir}/sheet.png`);
} finally {
  await inference.close();
}


async function photosOf(name: string, loose: { name: string; photo: Buffer }[], selfies: { name: string; photo: Buffer }[]): Promise<{ photo: Buffer }[]> {
  const asUpload = (file: string) => sharp(file).rotate().removeAlpha().resize(1024, 1024, { fit: 'outside' }).jpeg({ quality: 90 }).toBuffer();
  if (name === 'franck') return Promise.all(FRANCK_FRAMES.map(async (frame) => ({ photo: await asUpload(path.join(FIXTURES_DIR, `faces/franck_${frame}.jpg`)) })));
  if (extraDir) {
    const files = readdirSync(extraDir).filter((file) => file.startsWith(`${name}_`)).sort();
    if (files.length) return Promise.all(files.map(async (file) => ({ photo: await asUpload(path.join(extraDir, file)) })));
  }
  return [selfies.find((p) => p.name === `${name}-selfie`)!, loose.find((p) => p.name === name)!];
}
