import { expect, test } from 'vitest';
import { shopCapabilities } from './capabilities.js';

test('the capability is computed from the configuration: a generator AND the generator as default mode', () => {
  const generator = { baseUrl: 'https://gen.test' } as unknown as NonNullable<Parameters<typeof shopCapabilities>[0]['generator']>;
  expect(shopCapabilities({ generator: null, defaultProductionMode: 'studio' })).toEqual({ newOutfits: false });
  expect(shopCapabilities({ generator: null, defaultProductionMode: 'manual' })).toEqual({ newOutfits: false });
  expect(shopCapabilities({ generator, defaultProductionMode: 'studio' })).toEqual({ newOutfits: false });
  expect(shopCapabilities({ generator, defaultProductionMode: 'generator' })).toEqual({ newOutfits: true });
});
