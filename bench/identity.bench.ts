// The identity check: milliseconds per face descriptor on this machine (target ≤ 300 ms), what the
// recognition net adds to the process's memory, and the distance table of the real test photos
// (test/fixtures: five photos of one man, two portraits, the women of six group photos).
// In-process like studio.bench.ts: the models run in their worker thread, as at upload.
// Smoke (BENCH_SMOKE=1): two photos of the man and one portrait, no group photos.
import path from 'node:path';
import sharp from 'sharp';
import { descriptorDistance } from '../src/studio/identity.js';
import { createInference } from '../src/studio/inference/client.js';
import type { DetectedFace, FaceDescriptor, RgbImage } from '../src/studio/inference/types.js';
import { GATE, IDENTITY } from '../src/studio/thresholds.js';
import { PROJECT_ROOT, STUDIO_INFERENCE_WORKER, STUDIO_MODELS_DIR } from '../src/server/paths.js';
import { SMOKE, figure } from './in-process.js';

const FIXTURES = path.join(PROJECT_ROOT, 'test/fixtures');
const inference = createInference({ workerFile: STUDIO_INFERENCE_WORKER, modelDir: STUDIO_MODELS_DIR });
const mb = () => process.memoryUsage().rss / 1024 / 1024;

async function rgb(input: string | Buffer): Promise<RgbImage> {
  const { data, info } = await sharp(input)
    .rotate()
    .resize(GATE.analysisLongSidePx, GATE.analysisLongSidePx, { fit: 'inside', withoutEnlargement: true })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), width: info.width, height: info.height };
}
const largest = (faces: DetectedFace[]) => faces.filter((f) => f.score >= GATE.minFaceScore).sort((a, b) => b.box.height - a.box.height)[0]!;

interface Face {
  name: string;
  /** Which person, when known: faces of different group photos may be the same woman. */
  person: string | null;
  group: number | null;
  image: RgbImage;
  face: DetectedFace;
}
try {
  const faces: Face[] = [];
  for (const frame of SMOKE ? ['01829', '02221'] : ['01829', '02221', '02683', '03979', '04117']) {
    const image = await rgb(path.join(FIXTURES, `faces/franck_${frame}.jpg`));
    faces.push({ name: `franck ${frame}`, person: 'franck', group: null, image, face: largest(await inference.detectFaces(image)) });
  }
  for (const [name, file] of SMOKE
    ? [['astronaut', 'portrait-astronaut.png']]
    : [
        ['astronaut', 'portrait-astronaut.png'],
        ['hopper', 'portrait-hopper.jpg'],
      ]) {
    const image = await rgb(path.join(FIXTURES, file!));
    faces.push({ name: name!, person: name!, group: null, image, face: largest(await inference.detectFaces(image)) });
  }
  for (let group = 1; group <= (SMOKE ? 0 : 6); group++) {
    const image = await rgb(path.join(FIXTURES, `faces/sample${group}.jpg`));
    const found = (await inference.detectFaces(image)).filter((f) => f.score >= GATE.minFaceScore);
    found.forEach((face, i) => faces.push({ name: `sample${group}:${i}`, person: null, group, image, face }));
  }

  // The first descriptor loads the net's weights.
  const memoryBeforeNet = mb();
  let started = performance.now();
  await inference.describeFace(faces[0]!.image, faces[0]!.face);
  figure('first descriptor (loads the net)', Math.round(performance.now() - started), 'ms');
  figure('process memory added by the net', Math.round(mb() - memoryBeforeNet), 'MB');

  const descriptors: FaceDescriptor[] = [];
  started = performance.now();
  for (const face of faces) descriptors.push((await inference.describeFace(face.image, face.face))!);
  const perFace = (performance.now() - started) / faces.length;
  figure(`ms per face descriptor (${faces.length} faces, detection given)`, Math.round(perFace), 'ms', '≤ 300 ms');
  const portraits = faces.slice(0, 7);
  started = performance.now();
  for (const face of portraits) await inference.describeFace(face.image);
  figure(`ms per descriptor with detection (${portraits.length} portraits)`, Math.round((performance.now() - started) / portraits.length), 'ms');
  figure('process memory (RSS) with detection and the net', Math.round(mb()), 'MB');

  const same: number[] = [];
  const different: { names: string; distance: number }[] = [];
  for (let i = 0; i < faces.length; i++) {
    for (let j = i + 1; j < faces.length; j++) {
      const a = faces[i]!;
      const b = faces[j]!;
      const distance = descriptorDistance(descriptors[i]!, descriptors[j]!);
      if (a.person && a.person === b.person) same.push(distance);
      else if (a.person || b.person || a.group === b.group) different.push({ names: `${a.name} – ${b.name}`, distance });
    }
  }
  const closest = different.reduce((x, y) => (x.distance <= y.distance ? x : y));
  figure(`same person: smallest distance (${same.length} pairs)`, Number(Math.min(...same).toFixed(3)), '');
  figure('same person: largest distance', Number(Math.max(...same).toFixed(3)), '', `≤ ${IDENTITY.maxSamePersonDistance}`);
  figure(`different people: smallest distance (${different.length} pairs)`, Number(closest.distance.toFixed(3)), '', `> ${IDENTITY.maxSamePersonDistance}`);
  console.log(`  closest different pair: ${closest.names}`);
  figure('the man to anyone else: smallest distance', Number(Math.min(...different.filter((d) => d.names.includes('franck')).map((d) => d.distance)).toFixed(3)), '');

  console.log('\nDistance table (Euclidean; "=" marks a pair of the same person, "?" a pair of unknown identity):');
  const short = faces.map((f) => f.name.replace('franck ', 'f').replace('sample', 's').replace('astronaut', 'astro').slice(0, 6));
  console.log(`${''.padStart(7)}${short.map((s) => s.padStart(6)).join('')}`);
  for (let i = 0; i < faces.length; i++) {
    const cells = faces.map((b, j) => {
      const a = faces[i]!;
      if (i === j) return '     -';
      const mark = a.person && a.person === b.person ? '=' : a.person || b.person || a.group === b.group ? ' ' : '?';
      return `${mark}${descriptorDistance(descriptors[i]!, descriptors[j]!).toFixed(2)}`.padStart(6);
    });
    console.log(`${short[i]!.padStart(7)}${cells.join('')}`);
  }
} finally {
  await inference.close();
}
