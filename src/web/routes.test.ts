import { expect, test } from 'vitest';
import { PUBLIC_PAGES, linkTarget, resolvePath } from './routes.js';

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

test('the team pages: the order form, the buyer\'s page by id, the join link by token, the member\'s page by id', () => {
  expect(resolvePath('/team')).toEqual({ kind: 'page', page: 'team' });
  expect(resolvePath('/team/6f1c2a9e-3b4d-4c5e-8f70-123456789abc')).toEqual({ kind: 'page', page: 'teamStatus' });
  expect(resolvePath('/team/join/6f1c2a9e-3b4d-4c5e-8f70-123456789abc.abc')).toEqual({ kind: 'page', page: 'teamJoin' });
  expect(resolvePath('/team/member/6f1c2a9e-3b4d-4c5e-8f70-123456789abc')).toEqual({ kind: 'page', page: 'teamMember' });
  // Each page explains a missing id or token itself; deeper paths are nothing.
  expect(resolvePath('/team/join')).toEqual({ kind: 'page', page: 'teamJoin' });
  expect(resolvePath('/team/a/b/c')).toEqual({ kind: 'redirect', to: '/' });
  // Only the order form is for search engines and links; the others belong to one team.
  expect(PUBLIC_PAGES).toContain('/team');
  expect(PUBLIC_PAGES.filter((page) => page.startsWith('/team/'))).toEqual([]);
  expect(linkTarget('team')).toBe('/team');
  expect(linkTarget('teamJoin')).toBeNull();
});
