import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';

// The shop's pages use one small type scale: five sizes and two weights (global.css's :root). Every size and
// weight a page shows costs Chromium a font lookup before the page's first full layout (on Linux a blocking
// call to the browser process and fontconfig), and that layout is the longest task of a static page: with
// 23 sizes and weights on the home page it was 37-153 ms on this machine, with 8 it is 25-69 ms (issue 22, TBT).
const CUSTOMER_STYLESHEETS = ['src/web/styles/global.css', 'src/web/styles/app.css', 'src/web/styles/legal.css', 'src/web/pages/order/photo-crop.css'];

function declarations(property: string) {
  return CUSTOMER_STYLESHEETS.flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(new RegExp(`(?:^|[;{\\s])${property}:\\s*([^;}]+)`, 'g'))].map((m) => ({ file, value: (m[1] ?? '').trim() })),
  );
}

test('every font size on a customer page is a step of the type scale', () => {
  const sizes = declarations('font-size');
  expect(sizes.length).toBeGreaterThan(20);
  expect(sizes.filter(({ value }) => !/^var\(--text-[a-z0-9]+\)$/.test(value))).toEqual([]);
});

test('the type scale has at most seven steps', () => {
  const root = /:root \{([\s\S]*?)\n\}/.exec(readFileSync('src/web/styles/global.css', 'utf8'))?.[1] ?? '';
  const steps = [...root.matchAll(/--text-([a-z0-9]+):/g)].map((m) => m[1]);
  expect(steps.length).toBeGreaterThan(0);
  expect(steps.length).toBeLessThanOrEqual(7);
  const used = new Set(declarations('font-size').map(({ value }) => /--text-([a-z0-9]+)/.exec(value)?.[1]));
  expect([...used].filter((step) => !steps.includes(step ?? ''))).toEqual([]);
});

test('a customer page uses two font weights, 400 and 700', () => {
  expect(declarations('font-weight').filter(({ value }) => value !== '400' && value !== '700')).toEqual([]);
});

test('the logo draws its letters as outlines, not as text in a font of its own', () => {
  for (const file of ['src/web/components/nav-bar.tsx', 'public/favicon.svg']) expect(readFileSync(file, 'utf8')).not.toMatch(/<text[\s>]/);
});
