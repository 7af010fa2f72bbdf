import { expect, test } from 'vitest';
import { resolvePath } from './routes.js';

test('known pages resolve, the old wizard path goes to the order wizard, everything else home', () => {
  expect(resolvePath('/')).toEqual({ kind: 'page', page: 'home' });
  expect(resolvePath('/order')).toEqual({ kind: 'page', page: 'order' });
  expect(resolvePath('/order/')).toEqual({ kind: 'page', page: 'order' });
  expect(resolvePath('/order/upload')).toEqual({ kind: 'page', page: 'order' });
  expect(resolvePath('/order/features')).toEqual({ kind: 'page', page: 'order' });
  expect(resolvePath('/order/nonsense')).toEqual({ kind: 'redirect', to: '/' });
  expect(resolvePath('/success')).toEqual({ kind: 'page', page: 'success' });
  expect(resolvePath('/wizard/gender')).toEqual({ kind: 'redirect', to: '/order' });
  expect(resolvePath('/wizard')).toEqual({ kind: 'redirect', to: '/order' });
  expect(resolvePath('/somewhere/else')).toEqual({ kind: 'redirect', to: '/' });
  expect(resolvePath('/favicon.ico')).toEqual({ kind: 'notFound' });
});
