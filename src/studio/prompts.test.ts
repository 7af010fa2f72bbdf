import { describe, expect, test } from 'vitest';
import { GENDERS, LOCATIONS, OUTFITS, PACKAGES, type PackageKey } from '../domain/catalog.js';
import { BACKGROUND_CATALOGUE, OUTFIT_CATALOGUE, planGeneration, promptFor, seedFor, type GenerationRequest } from './prompts.js';

const ORDER = '6f1c2a3e-8d4b-4c1e-9a7f-2b3c4d5e6f70';

function request(overrides: Partial<GenerationRequest> = {}): GenerationRequest {
  return { package: 'pro', extras: [], style: 'professional', location: 'office', outfit: 'business', gender: 'female', generation: 0, orderId: ORDER, ...overrides };
}

describe('the prompt catalogue', () => {
  test('holds enough outfits and backgrounds for the biggest package, every one different', () => {
    const most = Math.max(...Object.values(PACKAGES).map((p) => Math.max(p.outfits, p.backgrounds)));
    for (const outfit of OUTFITS) {
      for (const gender of GENDERS) {
        expect(OUTFIT_CATALOGUE[outfit][gender].length).toBeGreaterThanOrEqual(most);
        expect(new Set(OUTFIT_CATALOGUE[outfit][gender]).size).toBe(OUTFIT_CATALOGUE[outfit][gender].length);
      }
    }
    for (const location of LOCATIONS) {
      expect(BACKGROUND_CATALOGUE[location].length).toBeGreaterThanOrEqual(most);
      expect(new Set(BACKGROUND_CATALOGUE[location]).size).toBe(BACKGROUND_CATALOGUE[location].length);
    }
  });

  test('a prompt asks for the same person, the outfit and the background; the negative prompt keeps the face and the brief', () => {
    const { prompt, negativePrompt } = promptFor({ style: 'professional', gender: 'male', outfit: OUTFIT_CATALOGUE.business.male[0]!, background: BACKGROUND_CATALOGUE.studio[0]! });
    expect(prompt).toContain('man from the reference photos');
    expect(prompt).toContain('identity exactly');
    expect(prompt).toContain('navy suit');
    expect(prompt).toContain('light grey studio backdrop');
    expect(negativePrompt).toContain('different person');
    expect(negativePrompt).toContain('multiple people');
    // Professional: no casual clothes; casual: no suit.
    expect(negativePrompt).toContain('hoodie');
    expect(promptFor({ style: 'casual', gender: 'female', outfit: 'x', background: 'y' }).negativePrompt).toContain('formal suit');
  });

  test('gender changes the garments and the subject; diverse gets neutral wording', () => {
    const women = planGeneration(request({ gender: 'female' }));
    const men = planGeneration(request({ gender: 'male' }));
    const diverse = planGeneration(request({ gender: 'diverse' }));
    expect(women[0]!.prompt).toContain('woman');
    expect(men[0]!.prompt).toContain('man from');
    expect(diverse[0]!.prompt).toContain('person from');
    expect(women[0]!.outfit.description).not.toBe(men[0]!.outfit.description);
  });
});

describe('planning a run', () => {
  test.each<[PackageKey, number, number, number]>([
    ['basic', 3, 1, 1],
    ['pro', 10, 3, 3],
    ['premium', 20, 5, 5],
  ])('%s: %i pictures over %i outfits and %i backgrounds, all combinations before any repeats', (pkg, count, outfits, backgrounds) => {
    const plan = planGeneration(request({ package: pkg }));
    expect(plan).toHaveLength(count);
    expect(new Set(plan.map((p) => p.outfit.variant)).size).toBe(outfits);
    expect(new Set(plan.map((p) => p.background.variant)).size).toBe(backgrounds);
    const combos = Math.min(count, outfits * backgrounds);
    expect(new Set(plan.slice(0, combos).map((p) => `${p.outfit.variant}/${p.background.variant}`)).size).toBe(combos);
    // Every outfit and every background is already in the first few pictures.
    const first = plan.slice(0, Math.max(outfits, backgrounds));
    expect(new Set(first.map((p) => p.outfit.variant)).size).toBe(outfits);
    expect(new Set(first.map((p) => p.background.variant)).size).toBe(backgrounds);
    expect(new Set(plan.map((p) => p.key)).size).toBe(count);
    expect(plan.every((p) => p.aspectRatio === '4:5')).toBe(true);
  });

  test('basic has no refinement: the style decides setting and outfit, whatever was sent', () => {
    const plan = planGeneration(request({ package: 'basic', location: 'office', outfit: 'casual', style: 'professional' }));
    expect(plan.every((p) => p.outfit.category === 'business' && p.background.location === 'studio')).toBe(true);
  });

  test('the booked setting and outfit are kept in every picture of pro and premium', () => {
    const plan = planGeneration(request({ package: 'premium', location: 'creative', outfit: 'smart_casual' }));
    expect(plan.every((p) => p.outfit.category === 'smart_casual' && p.background.location === 'creative')).toBe(true);
    expect(plan.every((p) => BACKGROUND_CATALOGUE.creative.includes(p.background.description))).toBe(true);
  });

  test('extra variants are new pictures: every picture has its own seed, and no prompt and seed pair repeats', () => {
    const plan = planGeneration(request({ package: 'pro', extras: ['extra_variants'] }));
    expect(plan).toHaveLength(20);
    expect(new Set(plan.map((p) => p.seed)).size).toBe(20);
    expect(new Set(plan.map((p) => `${p.prompt}|${p.seed}`)).size).toBe(20);
    // Past the nine combinations the pairing shifts: picture 10 does not repeat picture 1's look.
    expect(`${plan[9]!.outfit.variant}/${plan[9]!.background.variant}`).not.toBe(`${plan[0]!.outfit.variant}/${plan[0]!.background.variant}`);
  });

  test('the same order and generation give the same plan; another generation or order gives other pictures', () => {
    expect(planGeneration(request())).toEqual(planGeneration(request()));
    const next = planGeneration(request({ generation: 1 }));
    expect(next[0]!.key).toBe('generator:1:0');
    expect(next[0]!.seed).not.toBe(planGeneration(request())[0]!.seed);
    expect(planGeneration(request({ orderId: 'another' }))[0]!.seed).not.toBe(planGeneration(request())[0]!.seed);
  });

  test('a picture asked for again gets a new seed per attempt', () => {
    const seeds = [0, 1, 2, 3].map((attempt) => seedFor(ORDER, 0, 4, attempt));
    expect(new Set(seeds).size).toBe(4);
    expect(seeds.every((s) => Number.isInteger(s) && s >= 0 && s < 2 ** 31)).toBe(true);
  });
});
