import { expect, test } from 'vitest';
import { pieces, within } from './mask-pieces.js';

/** A mask drawn as text: '#' at 255, '.' at 0. */
function drawn(rows: string[]): { mask: Uint8Array; width: number; height: number } {
  const width = rows[0]!.length;
  const mask = new Uint8Array(width * rows.length);
  rows.forEach((row, y) => [...row].forEach((c, x) => (mask[y * width + x] = c === '#' ? 255 : 0)));
  return { mask, width, height: rows.length };
}

test('pieces joins runs across rows, corners included, and finds the largest', () => {
  const { mask, width, height } = drawn([
    '##....#...',
    '..#...#...',
    '...#......',
    '.......###',
    '#.....#...',
    // A U whose two arms meet only in the last row: one piece, found when the rows are joined.
    '#.#.......',
    '###.......',
  ]);
  const found = pieces(mask, width, height, 128);
  const sizes = [...found.sizes].sort((a, b) => a - b);
  // The diagonal (4 pixels), the short bar at the top (2), the right bar with the pixel below-left of it (4), the U (6).
  expect(sizes).toEqual([2, 4, 4, 6]);
  expect(found.sizes[found.largest]).toBe(6);
  // Every run's pixels are its piece's.
  const total = found.sizes.reduce((a, b) => a + b, 0);
  expect(total).toBe([...mask].filter((v) => v >= 128).length);
});

test('pieces of an empty mask: none, and no largest', () => {
  const found = pieces(new Uint8Array(12), 4, 3, 1);
  expect(found.sizes).toEqual([]);
  expect(found.largest).toBe(-1);
});

test('within marks a square around every pixel at the level, clipped at the borders', () => {
  const width = 9;
  const height = 7;
  const source = new Uint8Array(width * height);
  source[3 * width + 4] = 200;
  source[0] = 255;
  // Below the level: no neighbourhood of its own.
  source[6 * width + 8] = 100;
  const into = new Uint8Array(width * height).fill(7);
  within(source, 150, width, height, 2, into);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const expected = (Math.abs(x - 4) <= 2 && Math.abs(y - 3) <= 2) || (x <= 2 && y <= 2);
      expect(into[y * width + x] !== 0, `${x},${y}`).toBe(expected);
    }
  }
});
