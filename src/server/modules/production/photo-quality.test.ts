// The gate at upload: a check that cannot run lets the photo through unchecked (and says so), never blocks.
import { readFile } from 'node:fs/promises';
import type { FastifyBaseLogger } from 'fastify';
import { expect, test } from 'vitest';
import { LANGUAGES } from '../../../domain/catalog.js';
import type { StoredQualityReport } from '../../../domain/stored-json.js';
import { ALL_MESSAGES } from '../../../i18n/all-messages.js';
import { lookup } from '../../../i18n/messages.js';
import { PORTRAIT } from '../../../testing/images.js';
import type { Inference } from '../../../studio/inference/client.js';
import { REFUSING_ISSUES, WARNING_ISSUES } from '../../../studio/quality-gate.js';
import { pulidProfile } from '../../generator/profiles/pulid.js';
import { createReplicateGenerator } from '../../generator/replicate-generator.js';
import { createPhotoCheck, photoQualityView } from './photo-quality.js';

test('models that fail: the photo is accepted unchecked, the failure logged', async () => {
  const broken: Inference = {
    detectFaces: async () => {
      throw new Error('wasm backend did not start');
    },
    segment: async () => {
      throw new Error('wasm backend did not start');
    },
    describeFace: async () => {
      throw new Error('wasm backend did not start');
    },
    detectPoses: async () => {
      throw new Error('wasm backend did not start');
    },
    close: async () => {},
  };
  const lines: string[] = [];
  const log = { error: (_details: object, message: string) => void lines.push(message) } as unknown as FastifyBaseLogger;
  const photo = await readFile(PORTRAIT);
  const report = await createPhotoCheck(broken, log)(photo);
  expect(report).toBeNull();
  expect(photoQualityView(report)).toEqual({ verdict: 'unchecked', warnings: [] });
  expect(lines.join('')).toContain('photo accepted unchecked');
});

test('a burst of uploads waits its turn for the gate: the timeout measures the check, not the queue', async () => {
  // Like the models' thread: one request at a time, each taking a while.
  let queue = Promise.resolve();
  const slow = <T>(answer: T) => (queue = queue.then(() => new Promise((resolve) => setTimeout(resolve, 100)))).then(() => answer);
  const serial: Inference = { detectFaces: async () => slow([]), segment: async () => slow(new Uint8Array()), describeFace: async () => slow(null), detectPoses: async () => slow([]), close: async () => {} };
  const lines: string[] = [];
  const log = { error: (_details: object, message: string) => void lines.push(message) } as unknown as FastifyBaseLogger;
  const photo = await readFile(PORTRAIT);
  // 20 photos at once would wait 2 s in that thread; each check alone takes 100 to 200 ms.
  const check = createPhotoCheck(serial, log, { timeoutMs: 1000 });
  const reports = await Promise.all(Array.from({ length: 20 }, () => check(photo)));
  expect(reports.map((report) => report?.issues[0]?.code)).toEqual(Array.from({ length: 20 }, () => 'noFace'));
  expect(lines).toEqual([]);
});

test('each code of the gate reaches the customer in every language: a refusal as the upload error, a warning as advice', () => {
  for (const language of LANGUAGES) {
    for (const code of REFUSING_ISSUES) expect(lookup(ALL_MESSAGES[language], `errors.${code}`), `${language}: errors.${code}`).toEqual(expect.any(String));
    for (const code of WARNING_ISSUES) {
      expect(lookup(ALL_MESSAGES[language], `order.upload.quality.warnings.${code}`), `${language}: warnings.${code}`).toEqual(expect.any(String));
    }
  }
  // No advice is left for a warning the gate no longer gives.
  expect(Object.keys(ALL_MESSAGES.de.order.upload.quality.warnings).sort()).toEqual([...WARNING_ISSUES].sort());
});

test('a stored report shows its warnings, a tilted head among them; a report without a usable verdict shows as unchecked', () => {
  const report: StoredQualityReport = {
    verdict: 'warning',
    issues: [{ code: 'headTilted', measured: 0.5, limit: 0.26 }, { code: 'blurred', measured: 80, limit: 120 }],
    face: null,
    measures: { faces: 1 },
  };
  expect(photoQualityView(report)).toEqual({ verdict: 'warning', warnings: ['headTilted', 'blurred'] });
  // A refused report is never stored at upload; should the studio store one for a photo it checks late, it is not "ok".
  expect(photoQualityView({ verdict: 'refused', issues: [{ code: 'tooBlurred', measured: 9, limit: 15 }], face: null, measures: { faces: 1 } })).toEqual({ verdict: 'unchecked', warnings: [] });
});

test("the generator's outputs are fetched only from https or the provider's own address", async () => {
  const generator = createReplicateGenerator({ baseUrl: 'http://127.0.0.1:9/v1', token: 't', model: 'zsxkib/pulid', profile: pulidProfile, name: 'n' });
  for (const url of ['http://169.254.169.254/latest/meta-data', 'file:///etc/passwd', 'http://127.0.0.1:9@evil.example/x.png']) {
    await expect(generator.fetchOutput(url), url).rejects.toThrow(/output address refused/);
  }
});
