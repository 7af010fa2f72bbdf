import { expect, test } from 'vitest';
import { planDrafts } from './plan.js';

const photos = [
  { id: 'c', verdict: 'warning' as const },
  { id: 'a', verdict: 'ok' as const },
  { id: 'b', verdict: 'ok' as const },
];

test('a pro order gets 10 drafts in the three formats, on its location with 3 backgrounds, best photos first', () => {
  const plan = planDrafts({ package: 'pro', extras: [], style: 'professional', location: 'creative', outfit: 'business', photos, generation: 0 });
  expect(plan).toHaveLength(10);
  expect(new Set(plan.map((d) => d.key)).size).toBe(10);
  expect(plan.slice(0, 3).map((d) => d.spec.format)).toEqual(['portrait', 'square', 'application']);
  expect(new Set(plan.map((d) => d.spec.backdrop.kind))).toEqual(new Set(['creative']));
  expect(new Set(plan.map((d) => d.spec.backdrop.variant))).toEqual(new Set([0, 1, 2]));
  expect(plan.slice(0, 3).map((d) => d.photoId)).toEqual(['a', 'b', 'c']);
  expect(plan.every((d) => d.requestedOutfit === 'business')).toBe(true);
});

test('extra variants add 10; basic without a location uses the studio wall; premium 20 on 5 backgrounds', () => {
  expect(planDrafts({ package: 'pro', extras: ['extra_variants'], style: 'casual', location: 'studio', outfit: null, photos, generation: 0 })).toHaveLength(20);
  const basic = planDrafts({ package: 'basic', extras: [], style: 'professional', location: null, outfit: null, photos, generation: 0 });
  expect(basic.map((d) => d.spec.backdrop)).toEqual([{ kind: 'studio', variant: 0 }, { kind: 'studio', variant: 0 }, { kind: 'studio', variant: 0 }]);
  const premium = planDrafts({ package: 'premium', extras: [], style: 'creative', location: 'creative', outfit: 'casual', photos, generation: 0 });
  expect(premium).toHaveLength(20);
  expect(new Set(premium.map((d) => d.spec.backdrop.variant)).size).toBe(5);
});

test('the studio draws no room: an office asked for while a generator made the orders gets the studio wall', () => {
  const plan = planDrafts({ package: 'pro', extras: [], style: 'professional', location: 'office', outfit: 'business', photos, generation: 0 });
  expect(new Set(plan.map((d) => d.spec.backdrop.kind))).toEqual(new Set(['studio']));
});

test('the same input gives the same plan; a new generation gives new keys and other choices', () => {
  const input = { package: 'pro' as const, extras: [], style: 'professional' as const, location: 'studio' as const, outfit: null, photos, generation: 0 };
  expect(planDrafts(input)).toEqual(planDrafts(input));
  const next = planDrafts({ ...input, generation: 1 });
  expect(next[0]!.key).toBe('studio:1:0');
  expect(next.map((d) => `${d.photoId}/${d.spec.backdrop.variant}`)).not.toEqual(planDrafts(input).map((d) => `${d.photoId}/${d.spec.backdrop.variant}`));
  expect(planDrafts({ ...input, photos: [] })).toEqual([]);
});

test('no two drafts of an order are the same combination of photo, format, backdrop and framing, extra variants included', () => {
  for (const [pkg, extras, location] of [
    ['basic', ['extra_variants'], null],
    ['pro', ['extra_variants'], 'studio'],
    ['premium', ['extra_variants'], 'creative'],
  ] as const) {
    // An order has at least UPLOAD_LIMITS.minPhotos (3) photos.
    for (const photoCount of [3, 5, 10]) {
      const some = Array.from({ length: photoCount }, (_, i) => ({ id: `p${i}`, verdict: 'ok' as const }));
      for (const generation of [0, 1]) {
        const plan = planDrafts({ package: pkg, extras, style: 'professional', location, outfit: null, photos: some, generation });
        const combos = plan.map((d) => `${d.photoId}/${d.spec.format}/${d.spec.backdrop.variant}/${d.spec.variation ?? 0}`);
        expect(new Set(combos).size, `${pkg} ${photoCount} photos, generation ${generation}`).toBe(combos.length);
      }
    }
  }
});

test('photos, formats and backdrops take turns: a pro order with extras uses each photo and background about equally', () => {
  const plan = planDrafts({ package: 'pro', extras: ['extra_variants'], style: 'professional', location: 'studio', outfit: null, photos, generation: 0 });
  const tally = (key: (d: (typeof plan)[number]) => string) => Object.values(plan.reduce<Record<string, number>>((acc, d) => ({ ...acc, [key(d)]: (acc[key(d)] ?? 0) + 1 }), {}));
  for (const counts of [tally((d) => d.photoId), tally((d) => d.spec.format), tally((d) => String(d.spec.backdrop.variant))]) {
    expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1);
  }
});

test('every generation has each format and begins with the 4:5 portrait (regenerated sets are complete sets)', () => {
  for (const pkg of ['basic', 'pro', 'premium'] as const) {
    for (const generation of [0, 1, 2, 3]) {
      const plan = planDrafts({ package: pkg, extras: [], style: 'professional', location: pkg === 'basic' ? null : 'studio', outfit: null, photos, generation });
      expect(plan[0]!.spec.format, `${pkg} ${generation}`).toBe('portrait');
      expect(new Set(plan.map((d) => d.spec.format)), `${pkg} ${generation}`).toEqual(new Set(['portrait', 'square', 'application']));
    }
  }
});

test('a tight selfie without shoulders gives no 4:5 bust while photos that fill one are left; when none fills it, it still gives one', () => {
  const tight = { id: 'a-selfie', verdict: 'ok' as const, fills: { portrait: 0.1, square: 0.15, application: 1.1 } };
  const roomy = [
    { id: 'b', verdict: 'ok' as const, fills: { portrait: 1.3, square: 1.7, application: 6 } },
    { id: 'c', verdict: 'ok' as const, fills: { portrait: 1.2, square: 1.6, application: 5 } },
  ];
  const plan = planDrafts({ package: 'pro', extras: [], style: 'professional', location: 'studio', outfit: null, photos: [tight, ...roomy], generation: 0 });
  expect(plan.filter((d) => d.photoId === 'a-selfie' && d.spec.format !== 'application')).toEqual([]);
  expect(new Set(plan.map((d) => d.spec.format))).toEqual(new Set(['portrait', 'square', 'application']));
  // The 35 × 45 mm needs little below the chin: the selfie is used there.
  expect(plan.some((d) => d.photoId === 'a-selfie')).toBe(true);
  // Only tight selfies: every format is still made.
  const only = planDrafts({ package: 'basic', extras: [], style: 'professional', location: null, outfit: null, photos: [tight, { ...tight, id: 'b' }, { ...tight, id: 'c' }], generation: 0 });
  expect(only.map((d) => d.spec.format)).toEqual(['portrait', 'square', 'application']);
});

test('a photo with someone else at its side gives drafts only after the clean photos, unless the order has nothing else', () => {
  const party = { id: 'a-party', verdict: 'warning' as const, othersAtSide: true };
  const clean = [
    { id: 'b', verdict: 'ok' as const },
    { id: 'c', verdict: 'warning' as const },
  ];
  const plan = planDrafts({ package: 'pro', extras: [], style: 'professional', location: 'studio', outfit: null, photos: [party, ...clean], generation: 0 });
  expect(plan).toHaveLength(10);
  expect(plan.filter((d) => d.photoId === 'a-party')).toEqual([]);
  // One clean photo: it gives its fresh combinations of format and backdrop first, then the others come in.
  const one = planDrafts({ package: 'pro', extras: ['extra_variants'], style: 'professional', location: 'studio', outfit: null, photos: [party, { ...party, id: 'a-party-2' }, clean[0]!], generation: 0 });
  expect(one.slice(0, 8).map((d) => d.photoId)).toEqual(Array(8).fill('b'));
  expect(one.filter((d) => d.photoId !== 'b').length).toBeGreaterThan(5);
  // Only such photos: every draft is still made.
  const only = planDrafts({ package: 'basic', extras: [], style: 'professional', location: null, outfit: null, photos: [party, { ...party, id: 'b' }, { ...party, id: 'c' }], generation: 0 });
  expect(only).toHaveLength(3);
});
