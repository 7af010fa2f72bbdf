// `npm run generator:self-check` as an operator runs it on the embedded database (the command serves the shop
// for the check): against a stand-in of a Cog container started as the README says, with the shop's upload
// address, that answers a picture of the test face; and the same container started without the address.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';
import { startCogStandIn } from '../test/generator/cog-stand-in.js';
import { INSTANT_ID } from '../test/generator/published-models.js';
import { cogUploadUrl } from '../generator/upload-address.js';
import { PROJECT_ROOT } from '../paths.js';
import { freePort } from '../test/shop-process.js';

const SECRET = 'self-check-cli-secret-0123456789abcdef';

test('the self-check command: one prediction with the test face through the real HTTP path, its result printed; exit 1 when the container keeps its files', { timeout: 180_000 }, async () => {
  const port = await freePort();
  const shop = `http://127.0.0.1:${port}`;
  const stand = await startCogStandIn({ model: INSTANT_ID, uploadUrl: cogUploadUrl(shop, SECRET), behaviour: { output: 'self-check-face', delayMs: 100 } });
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'self-check-cli-'));
  const run = () =>
    promisify(execFile)(process.execPath, ['--import', 'tsx', '--import', './scripts/ignore-styles.mjs', 'src/server/cli/generator-self-check.ts'], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'warn', DATABASE_URL: '', DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: shop, GENERATOR: 'cog', COG_URL: stand.baseUrl, GENERATOR_MODEL: 'zsxkib/instant-id', GENERATOR_WEBHOOK_SECRET: SECRET },
      timeout: 150_000,
    }).then(
      ({ stdout }) => ({ code: 0, text: stdout }),
      (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, text: error.stdout + error.stderr }),
    );
  try {
    const passed = await run();
    expect(passed.code, passed.text).toBe(0);
    expect(passed.text).toContain(`model: ${stand.baseUrl} (cog), profile: instant-id`);
    expect(passed.text).toMatch(/inputs sent: \{.*"image":"http:\/\/127\.0\.0\.1:\d+\/files\/generator-self-check\/\d+\/face\.png\?…"/);
    expect(passed.text).toMatch(/identity: distance 0\.\d{3} to the test face \(limit 0\.5\); gate: ok/);
    expect(passed.text).toContain('self-check passed');
    const [prediction] = [...stand.predictions.values()];
    expect(prediction).toMatchObject({ runs: 1, status: 'succeeded' });

    stand.uploadUrl = null;
    const failed = await run();
    expect(failed.code).toBe(1);
    expect(failed.text).toContain('self-check FAILED:\n- the container reported success, but uploaded no file to the shop');
  } finally {
    await stand.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
});
