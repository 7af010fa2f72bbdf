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
  expect(resolvePath('/tracking')).toEqual({ kind: 'page', page: 'tracking' });
  expect(resolvePath('/order-status/6f1c2a9e-3b4d-4c5e-8f70-123456789abc')).toEqual({ kind: 'page', page: 'orderStatus' });
  expect(resolvePath('/order-status/a/b')).toEqual({ kind: 'redirect', to: '/' });
  expect(resolvePath('/wizard/gender')).toEqual({ kind: 'redirect', to: '/order' });
  expect(resolvePath('/wizard')).toEqual({ kind: 'redirect', to: '/order' });
  expect(resolvePath('/somewhere/else')).toEqual({ kind: 'redirect', to: '/' });
  expect(resolvePath('/favicon.ico')).toEqual({ kind: 'notFound' });
});
