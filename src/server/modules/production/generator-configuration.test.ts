// The external generator's settings: every model profile against its model as published, a container that
// runs another model than the settings name, and a shop without a generator.
import { describe, expect, test } from 'vitest';
import { startCogStandIn } from '../../test/generator/cog-stand-in.js';
import { FLUX_PULID, PULID } from '../../test/generator/published-models.js';
import { buildTestApp } from '../../test/app.js';
import { testDatabases } from '../../test/databases.js';
import { signInStaff } from '../../test/staff.js';
import { payOrder, placeOrder } from '../../test/seed.js';
import { cogUploadUrl } from '../../generator/upload-address.js';
import { GENERATOR_WEBHOOK_PATH } from './generator-context.js';
import { BASIC, chooseGeneratorFor, cogShop, COG_SECRET, generatorDatabase, predictionsOf } from './test-generator.js';

describe.each(testDatabases())('external generator on $name', (testDb) => {
  const data = generatorDatabase(testDb);
  const { pictures } = data;

  // Every profile against its model as published (generator-cog.test.ts runs instant-id on Cog, generator-replicate.test.ts pulid on Replicate).
  test.each([
    { key: 'pulid', model: PULID, face: 'main_face_image', count: 'num_samples', ip: '10.81.0.3' },
    { key: 'flux-pulid', model: FLUX_PULID, face: 'main_face_image', count: 'num_outputs', ip: '10.81.0.4' },
  ])('profile $key on a Cog container serving its published predictor: a basic order ends with checked drafts, nothing dropped', async ({ key, model, face, count, ip }) => {
    const stand = await startCogStandIn({ model, uploadUrl: cogUploadUrl('https://shop.test', COG_SECRET), behaviour: { output: 'same-person', delayMs: 20 } });
    const t = await cogShop(data.db, stand, `zsxkib/${key}`);
    try {
      expect(await t.app.generatorCheck).toEqual([]);
      const staff = await signInStaff(t.app, ip);
      const { order } = await chooseGeneratorFor(t, staff, BASIC);
      await t.app.jobRunner!.drain();
      const made = predictionsOf(stand.predictions, face, order.orderId);
      expect(made).toHaveLength(3);
      for (const p of made) {
        // What the model received is what was sent: no input it lacks (pydantic would drop it without a word).
        expect(p.received).toEqual(p.input);
        expect(p.input[count]).toBe(1);
        expect(p.output).toHaveLength(1);
      }
      expect(new Set(made.map((p) => p.input.seed)).size).toBe(3);
      expect(await pictures(order.orderId)).toBe(3);
    } finally {
      await t.close();
      await stand.stop();
    }
  });

  test('a container that runs another model than GENERATOR_MODEL says: the check at start names each mismatch', async () => {
    const other = await startCogStandIn({ model: FLUX_PULID });
    const wrong = await buildTestApp(data.db, { GENERATOR: 'cog', COG_URL: other.baseUrl, GENERATOR_MODEL: 'zsxkib/instant-id', GENERATOR_WEBHOOK_SECRET: COG_SECRET }, {});
    try {
      expect(await wrong.app.generatorCheck).toEqual(['input "image" is not one the model has (the model drops it without a word)', 'input "num_outputs" is 8, above the model\'s maximum 4']);
    } finally {
      await wrong.close();
      await other.stop();
    }
  });

  test('without a configured generator the mode is refused with a clear code', async () => {
    const plain = await buildTestApp(data.db, {}, {});
    await plain.app.auth.createStaff({ email: 'plain@example.de', password: 'ein-langes-passwort-5', name: 'Plain' });
    const login = await plain.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'plain@example.de', password: 'ein-langes-passwort-5' }, remoteAddress: '10.81.0.3' });
    const order = await placeOrder(plain.app);
    await payOrder(plain.app, order);
    const response = await plain.app.inject({
      method: 'POST',
      url: `/api/admin/orders/${order.orderId}/studio/mode`,
      payload: { mode: 'generator' },
      headers: { cookie: String(login.headers['set-cookie']).split(';')[0]!, 'x-csrf-token': login.json().csrfToken },
    });
    expect(response.json().error.code).toBe('generatorNotConfigured');
    expect((await plain.app.inject({ method: 'POST', url: GENERATOR_WEBHOOK_PATH, payload: {} })).statusCode).toBe(404);
    await plain.close();
  });
});
