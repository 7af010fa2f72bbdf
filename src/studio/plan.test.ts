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
  // The clean photos take turns; the warned one (c) is not needed for ten drafts.
  expect(plan.slice(0, 3).map((d) => d.photoId)).toEqual(['a', 'b', 'a']);
  expect(plan.filter((d) => d.photoId === 'c')).toEqual([]);
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

test('photos, formats and backdrops take turns: a pro order with extras uses each clean photo and background about equally', () => {
  const clean = photos.map((photo) => ({ ...photo, verdict: 'ok' as const }));
  const plan = planDrafts({ package: 'pro', extras: ['extra_variants'], style: 'professional', location: 'studio', outfit: null, photos: clean, generation: 0 });
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

test('a photo too tight for a 4:5 or 1:1 frame gives none while photos that give one are left; when none does, it still gives one', () => {
  const tight = { id: 'a-selfie', verdict: 'ok' as const, fills: { portrait: 0.6, square: 0.7, application: 1 } };
  const roomy = [
    { id: 'b', verdict: 'ok' as const, fills: { portrait: 1, square: 1, application: 1 } },
    { id: 'c', verdict: 'ok' as const, fills: { portrait: 1, square: 1, application: 1 } },
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
  // The photo warned for something else (c) comes after the clean one, before the one with someone at its side.
  const warnedOnly = planDrafts({ package: 'premium', extras: ['extra_variants'], style: 'professional', location: 'studio', outfit: null, photos: [party, clean[1]!], generation: 0 });
  expect(warnedOnly[0]!.photoId).toBe('c');
  expect(warnedOnly.filter((d) => d.photoId === 'c').length).toBeGreaterThanOrEqual(warnedOnly.filter((d) => d.photoId === 'a-party').length);
  // One clean photo: it gives every combination of format and backdrop, and a second framing of each (18), before
  // the warned photos come in.
  const one = planDrafts({ package: 'pro', extras: ['extra_variants'], style: 'professional', location: 'studio', outfit: null, photos: [party, { ...party, id: 'a-party-2' }, clean[0]!], generation: 0 });
  expect(one.slice(0, 18).map((d) => d.photoId)).toEqual(Array(18).fill('b'));
  expect(one.filter((d) => d.photoId !== 'b')).toHaveLength(2);
  // Only such photos: every draft is still made.
  const only = planDrafts({ package: 'basic', extras: [], style: 'professional', location: null, outfit: null, photos: [party, { ...party, id: 'b' }, { ...party, id: 'c' }], generation: 0 });
  expect(only).toHaveLength(3);
});

test('seven photos, four clean (tight selfies) and three warned (too dark, blurred): every draft comes from the clean four, each of them used', () => {
  const clean = ['smile-1', 'smile-2', 'serious', 'turned'].map((id, n) => ({ id, verdict: 'ok' as const, fills: { portrait: 0.93 + n * 0.02, square: 0.95, application: 1 } }));
  const warned = ['dark-1', 'dark-2', 'blurred'].map((id) => ({ id, verdict: 'warning' as const, fills: { portrait: 1, square: 1, application: 1 } }));
  for (const [pkg, extras] of [['pro', []], ['premium', []], ['premium', ['extra_variants']]] as const) {
    const plan = planDrafts({ package: pkg, extras, style: 'professional', location: 'studio', outfit: null, photos: [...warned, ...clean], generation: 0 });
    expect(plan.filter((d) => d.photoId.startsWith('dark') || d.photoId === 'blurred'), pkg).toEqual([]);
    const uses = clean.map((photo) => plan.filter((d) => d.photoId === photo.id).length);
    expect(Math.min(...uses), `${pkg}: each clean photo used`).toBeGreaterThanOrEqual(Math.floor(plan.length / clean.length) - 1);
  }
  // The same order after the staff regenerate: the next generation again from the clean photos.
  const next = planDrafts({ package: 'premium', extras: [], style: 'professional', location: 'studio', outfit: null, photos: [...warned, ...clean], generation: 1 });
  expect(next.filter((d) => !clean.some((photo) => photo.id === d.photoId))).toEqual([]);
});

test('a clean photo that cannot give a format leaves it to a warned photo that can; one only a little tighter does not', () => {
  const tooTight = { id: 'a-clean', verdict: 'ok' as const, fills: { portrait: 0.7, square: 0.8, application: 1 } };
  const nearly = { id: 'b-clean', verdict: 'ok' as const, fills: { portrait: 0.93, square: 1, application: 1 } };
  const warned = { id: 'c-warned', verdict: 'warning' as const, fills: { portrait: 1, square: 1, application: 1 } };
  const plan = planDrafts({ package: 'pro', extras: [], style: 'professional', location: 'studio', outfit: null, photos: [tooTight, warned], generation: 0 });
  expect(plan.filter((d) => d.photoId === 'a-clean' && d.spec.format === 'portrait')).toEqual([]);
  expect(plan.some((d) => d.photoId === 'a-clean')).toBe(true);
  const near = planDrafts({ package: 'pro', extras: [], style: 'professional', location: 'studio', outfit: null, photos: [nearly, warned], generation: 0 });
  expect(near.filter((d) => d.photoId === 'c-warned')).toEqual([]);
});
