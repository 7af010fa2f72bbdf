import { expect, test } from 'vitest';
import { resolvePath } from './routes.js';

test('known pages resolve, the old wizard path goes to the order wizard, everything else home', () => {
  expect(resolvePath('/')).toEqual({ kind: 'page', page: 'home' });
  expect(resolvePath('/wizard/gender')).toEqual({ kind: 'redirect', to: '/order' });
  expect(resolvePath('/wizard')).toEqual({ kind: 'redirect', to: '/order' });
  expect(resolvePath('/somewhere/else')).toEqual({ kind: 'redirect', to: '/' });
  expect(resolvePath('/favicon.ico')).toEqual({ kind: 'notFound' });
});
