// Staff see the newest work first: the latest run at the top, each run in the order it was made.
import { expect, test } from 'vitest';
import { newestFirst } from './admin-service.js';

const at = (minute: number) => new Date(Date.UTC(2026, 10, 25, 10, minute));
const studio = (id: string, generation: number, minute: number) => ({ id, generationType: 'studio', variant: { generation }, createdAt: at(minute) });
const upload = (id: string, minute: number) => ({ id, generationType: 'admin_upload', variant: null, createdAt: at(minute) });

test('the latest run comes first, a run keeps its own order (starting with its 4:5 portrait), staff uploads stand alone', () => {
  const results = [studio('g0-a', 0, 1), studio('g0-b', 0, 2), studio('g0-c', 0, 3), upload('u1', 5), studio('g1-a', 1, 10), studio('g1-b', 1, 11), upload('u2', 20)];
  expect(newestFirst(results).map((r) => r.id)).toEqual(['u2', 'g1-a', 'g1-b', 'u1', 'g0-a', 'g0-b', 'g0-c']);
  // Studio and generator runs of the same number are different runs.
  const mixed = [studio('s1', 1, 1), { id: 'x1', generationType: 'external', variant: { generation: 1 }, createdAt: at(30) }];
  expect(newestFirst(mixed).map((r) => r.id)).toEqual(['x1', 's1']);
});
