// `npm run examples`: the home page's before/after pairs, made by the studio pipeline itself from the
// public-domain portraits in examples/sources (see SOURCES.md there). Writes public/examples/.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import type { BaseStyle } from '../src/domain/catalog.js';
import type { BackdropKind } from '../src/studio/backdrops.js';
import { PROJECT_ROOT, STUDIO_INFERENCE_WORKER, STUDIO_MODELS_DIR } from '../src/server/paths.js';
import type { OutputFormatKey } from '../src/studio/formats.js';
import { createInference } from '../src/studio/inference/client.js';
import { assessPhoto } from '../src/studio/quality-gate.js';
import { renderDraft } from '../src/studio/render.js';

const SOURCE = path.join(PROJECT_ROOT, 'examples/sources/portrait-astronaut.png');
const OUT = path.join(PROJECT_ROOT, 'public/examples');
const CREDIT = 'NASA, gemeinfrei (public domain)';
const SIZE = { width: 480, height: 600 };
/** The phones' variant: an image shown about 190 px wide at a device pixel ratio up to 1.9 needs no more. */
const SMALL_WIDTH = 360;

const PAIRS: { id: string; style: BaseStyle; location: BackdropKind; variant: number; format: OutputFormatKey }[] = [
  { id: 'studio-professional', style: 'professional', location: 'studio', variant: 1, format: 'portrait' },
  { id: 'studio-casual', style: 'casual', location: 'studio', variant: 2, format: 'portrait' },
  { id: 'creative', style: 'creative', location: 'creative', variant: 3, format: 'portrait' },
];

const inference = createInference({ workerFile: STUDIO_INFERENCE_WORKER, modelDir: STUDIO_MODELS_DIR });
try {
  await mkdir(OUT, { recursive: true });
  // The source as a customer's photo would arrive: enlarged to the upload minimum, 4:5.
  const photo = await sharp(SOURCE).resize(1200, 1500, { fit: 'cover' }).jpeg({ quality: 90 }).toBuffer();
  const report = await assessPhoto(photo, inference);
  if (!report.face) throw new Error('no face found in the source portrait');
  // One source, one "before" file shared by its pairs; each image also SMALL_WIDTH wide for phones (srcset).
  const before = await sharp(photo).resize(SIZE.width, SIZE.height).webp({ quality: 80 }).toBuffer();
  await writeFile(path.join(OUT, 'astronaut-before.webp'), before);
  await writeFile(path.join(OUT, `astronaut-before-${SMALL_WIDTH}.webp`), await sharp(before).resize(SMALL_WIDTH).webp({ quality: 80 }).toBuffer());
  const pairs = [];
  for (const pair of PAIRS) {
    const draft = await renderDraft({ photo, face: report.face, spec: { format: pair.format, backdrop: { kind: pair.location, variant: pair.variant }, style: pair.style }, inference });
    const after = await sharp(draft.buffer).resize(SIZE.width, SIZE.height).webp({ quality: 82 }).toBuffer();
    await writeFile(path.join(OUT, `${pair.id}-after.webp`), after);
    await writeFile(path.join(OUT, `${pair.id}-after-${SMALL_WIDTH}.webp`), await sharp(after).resize(SMALL_WIDTH).webp({ quality: 82 }).toBuffer());
    pairs.push({
      id: pair.id,
      before: { src: '/examples/astronaut-before.webp', ...SIZE, small: { src: `/examples/astronaut-before-${SMALL_WIDTH}.webp`, width: SMALL_WIDTH } },
      after: { src: `/examples/${pair.id}-after.webp`, ...SIZE, small: { src: `/examples/${pair.id}-after-${SMALL_WIDTH}.webp`, width: SMALL_WIDTH } },
      style: pair.style,
      location: pair.location,
      credit: CREDIT,
    });
    console.log(`examples/${pair.id}: ${after.length} bytes`);
  }
  await writeFile(path.join(OUT, 'examples.json'), `${JSON.stringify({ pairs }, null, 2)}\n`);
} finally {
  await inference.close();
}
