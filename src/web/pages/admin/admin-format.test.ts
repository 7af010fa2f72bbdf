import { describe, expect, test } from 'vitest';
import { orderPager, pluralOrders } from './admin-format.js';

const rows = (n: number) => Array.from({ length: n }, (_, i) => i);

describe('the order list pager and total', () => {
  test('counted exactly: "Seite 2 von 3", next up to the last page, hidden for one page', () => {
    expect(orderPager({ total: 60, totalExact: true, pageSize: 25, orders: rows(25) }, 2)).toEqual({ shown: true, label: 'Seite 2 von 3', hasNext: true });
    expect(orderPager({ total: 60, totalExact: true, pageSize: 25, orders: rows(10) }, 3).hasNext).toBe(false);
    expect(orderPager({ total: 7, totalExact: true, pageSize: 25, orders: rows(7) }, 1).shown).toBe(false);
    expect(pluralOrders(1)).toBe('1 Bestellung');
    expect(pluralOrders(1000)).toBe('1.000 Bestellungen');
  });

  test('past the server\'s count: "mehr als", next while pages are full, a page past the end can go back', () => {
    const counted = { total: 1000, totalExact: false, pageSize: 25 };
    expect(pluralOrders(1000, false)).toBe('Mehr als 1.000 Bestellungen');
    expect(orderPager({ ...counted, orders: rows(25) }, 40)).toEqual({ shown: true, label: 'Seite 40 von mehr als 40', hasNext: true });
    expect(orderPager({ ...counted, orders: rows(25) }, 200).hasNext).toBe(true);
    expect(orderPager({ ...counted, orders: rows(3) }, 201).hasNext).toBe(false);
    expect(orderPager({ ...counted, orders: [] }, 999)).toMatchObject({ shown: true, hasNext: false });
  });
});
