import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { withoutAppCss } from './app-css.js';

const template = '<head><style nonce="n">body{margin:0}.nav{color:red}.app-css-start{--app-css:1}.wizard{max-width:1000px}</style><meta name="x"></head>';

test('the application styles go from the marker rule to the end of the inlined stylesheet; everything else stays', () => {
  expect(withoutAppCss(template)).toBe('<head><style nonce="n">body{margin:0}.nav{color:red}</style><meta name="x"></head>');
});

test('a template without the marker (development: no stylesheet inlined) is left as it is', () => {
  expect(withoutAppCss('<head><link rel="stylesheet" href="/src/web/styles/global.css"></head>')).toBe('<head><link rel="stylesheet" href="/src/web/styles/global.css"></head>');
});

test('the marker rule opens app.css, and app.css is imported after every other stylesheet of the entry', () => {
  expect(readFileSync('src/web/styles/app.css', 'utf8')).toMatch(/^\/\*[\s\S]*?\*\/\s*\.app-css-start \{/);
  const imports = [...readFileSync('src/web/entry-client.tsx', 'utf8').matchAll(/^import '(\.\/styles\/[^']+\.css)';$/gm)].map((m) => m[1]);
  expect(imports.at(-1)).toBe('./styles/app.css');
});
