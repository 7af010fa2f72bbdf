// The customer's published pictures: the ZIPs and single downloads through signed links, refused when run out or
// altered, and the favourites.
import { eq } from 'drizzle-orm';
import yauzl from 'yauzl';
import { describe, expect, test } from 'vitest';
import { generatedImages, imageDownloads } from '../../db/schema.js';
import { testDatabases } from '../../test/databases.js';
import { variantWith } from '../../test/seed.js';
import { signInStaff } from '../../test/staff.js';
import { afterTheSale } from './test-after-sale.js';

function zipEntries(buffer: Buffer): Promise<{ name: string; size: number }[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buffer, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error);
      const entries: { name: string; size: number }[] = [];
      zip.on('entry', (entry: yauzl.Entry) => {
        entries.push({ name: entry.fileName, size: entry.uncompressedSize });
        zip.readEntry();
      });
      zip.on('end', () => resolve(entries));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

describe.each(testDatabases())('after the sale on $name', (testDb) => {
  const sale = afterTheSale(testDb);
  const { token, status, paidOrder, completedOrder } = sale;

  test('the ZIP holds exactly the published images with the right names, and downloads are recorded', async () => {
    const { order, ids } = await completedOrder();
    const view = (await status(order.orderId)).json();
    expect(view.results.map((r: { id: string; n: number }) => [r.id, r.n])).toEqual([
      [ids[0], 1],
      [ids[2], 2],
      [ids[4], 3],
    ]);
    expect(view.uploads).toEqual([]);
    const zip = await sale.t.app.inject({ method: 'GET', url: view.zipUrl });
    expect(zip.statusCode).toBe(200);
    expect(zip.headers['content-type']).toBe('application/zip');
    expect(zip.headers['content-disposition']).toBe(`attachment; filename="bewerbungsfotos-${order.orderNumber}.zip"`);
    const entries = await zipEntries(zip.rawPayload);
    expect(entries.map((e) => e.name)).toEqual(['headshot-1-ergebnis-1.jpg', 'headshot-2-ergebnis-3.jpg', 'headshot-3-ergebnis-5.jpg']);
    expect(entries.every((e) => e.size > 10_000)).toBe(true);
    const recorded = await sale.db.db.select().from(imageDownloads).where(eq(imageDownloads.orderId, order.orderId));
    expect(recorded.map((r) => [r.generatedImageId, r.kind]).sort()).toEqual([ids[0], ids[2], ids[4]].map((id) => [id, 'zip']).sort());
  });

  test('pictures in several formats also come as one ZIP per format, numbered as on the page; a link for one format opens no other', async () => {
    const { order, ids } = await completedOrder();
    expect((await status(order.orderId)).json().formatZips).toEqual([]);
    await sale.db.db.update(generatedImages).set({ variant: variantWith({ format: 'portrait' }) }).where(eq(generatedImages.id, ids[0]!));
    await sale.db.db.update(generatedImages).set({ variant: variantWith({ format: 'square' }) }).where(eq(generatedImages.id, ids[2]!));
    await sale.db.db.update(generatedImages).set({ variant: variantWith({ format: 'portrait' }) }).where(eq(generatedImages.id, ids[4]!));
    const view = (await status(order.orderId)).json();
    expect(view.formatZips.map((z: { format: string; count: number }) => [z.format, z.count])).toEqual([
      ['portrait', 2],
      ['square', 1],
    ]);
    const portrait = await sale.t.app.inject({ method: 'GET', url: view.formatZips[0].url });
    expect(portrait.headers['content-disposition']).toBe(`attachment; filename="bewerbungsfotos-${order.orderNumber}-4x5.zip"`);
    expect((await zipEntries(portrait.rawPayload)).map((e) => e.name)).toEqual(['headshot-1-ergebnis-1.jpg', 'headshot-3-ergebnis-5.jpg']);
    // The signature covers the format: swapped, or dropped (which would mean all pictures), the link is refused.
    const swapped = (view.formatZips[0].url as string).replace('format=portrait', 'format=square');
    expect((await sale.t.app.inject({ method: 'GET', url: swapped })).statusCode).toBe(403);
    expect((await sale.t.app.inject({ method: 'GET', url: (view.formatZips[0].url as string).replace('format=portrait&', '') })).statusCode).toBe(403);
    expect((await sale.t.app.inject({ method: 'GET', url: (view.formatZips[0].url as string).replace('format=portrait', 'format=poster') })).statusCode).toBe(400);
  });

  test('one image downloads as headshot-{n}-{file} through a signed link, and is recorded', async () => {
    const { order, ids } = await completedOrder();
    const view = (await status(order.orderId)).json();
    const response = await sale.t.app.inject({ method: 'GET', url: view.results[1].downloadUrl });
    expect(response.statusCode).toBe(302);
    const file = await sale.t.app.inject({ method: 'GET', url: response.headers.location as string });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-disposition']).toContain('headshot-2-ergebnis-3.jpg');
    const recorded = await sale.db.db.select().from(imageDownloads).where(eq(imageDownloads.generatedImageId, ids[2]!));
    expect(recorded.map((r) => r.kind)).toEqual(['single']);
  });

  test('an expired or altered download link is refused', async () => {
    const { order } = await completedOrder();
    const view = (await status(order.orderId)).json();
    const zipUrl: string = view.zipUrl;
    const altered = zipUrl.replace(/sig=([0-9a-f])/, (_m, c: string) => `sig=${c === 'a' ? 'b' : 'a'}`);
    expect((await sale.t.app.inject({ method: 'GET', url: altered })).json().error.code).toBe('linkInvalid');
    const otherOrder = zipUrl.replace(order.orderId, (await paidOrder()).orderId);
    expect((await sale.t.app.inject({ method: 'GET', url: otherOrder })).statusCode).toBe(403);
    const unsigned = zipUrl.split('?')[0]!;
    expect((await sale.t.app.inject({ method: 'GET', url: unsigned })).statusCode).toBe(403);
    const saved = sale.clock;
    sale.clock = new Date(sale.clock.getTime() + 2 * 3600 * 1000);
    const expired = await sale.t.app.inject({ method: 'GET', url: zipUrl });
    sale.clock = saved;
    expect(expired.statusCode).toBe(403);
    expect(expired.json().error.code).toBe('linkExpired');
  });

  test('a person who opens a run-out or broken download link lands on the status page, which says why; a script gets JSON', async () => {
    const { order } = await completedOrder();
    const view = (await status(order.orderId)).json();
    const browser = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
    const saved = sale.clock;
    sale.clock = new Date(sale.clock.getTime() + 2 * 3600 * 1000);
    const expiredZip = await sale.t.app.inject({ method: 'GET', url: view.zipUrl, headers: browser });
    const expiredImage = await sale.t.app.inject({ method: 'GET', url: view.results[0].downloadUrl, headers: browser });
    sale.clock = saved;
    for (const response of [expiredZip, expiredImage]) {
      expect(response.statusCode).toBe(303);
      expect(response.headers.location).toBe(`/order-status/${order.orderId}?download=link`);
    }
    const altered = (view.zipUrl as string).replace(/sig=([0-9a-f])/, (_m, c: string) => `sig=${c === 'a' ? 'b' : 'a'}`);
    expect((await sale.t.app.inject({ method: 'GET', url: altered, headers: browser })).headers.location).toBe(`/order-status/${order.orderId}?download=link`);
    // The page's own script (or any client asking for JSON) still gets the error in our shape.
    expect((await sale.t.app.inject({ method: 'GET', url: altered, headers: { accept: 'application/json' } })).json().error.code).toBe('linkInvalid');
  });

  test('the customer keeps favourites among the published pictures, each labelled with its format; staff see them', async () => {
    const { order, ids } = await completedOrder();
    await sale.db.db.update(generatedImages).set({ variant: variantWith({ format: 'square' }) }).where(eq(generatedImages.id, ids[0]!));
    const favourite = (imageId: string, value: boolean, proof = token(order.orderId)) =>
      sale.t.app.inject({ method: 'POST', url: `/api/orders/${order.orderId}/results/${imageId}/favourite`, headers: { 'x-status-token': proof }, payload: { favourite: value } });
    const marked = await favourite(ids[2]!, true);
    expect(marked.statusCode).toBe(200);
    const results = marked.json().results as { id: string; favourite: boolean; format: string | null }[];
    expect(results.map((r) => [r.id, r.favourite, r.format])).toEqual([
      [ids[0], false, 'square'],
      [ids[2], true, null],
      [ids[4], false, null],
    ]);
    // Kept on the order: the next visit shows it, and staff see it.
    expect((await status(order.orderId)).json().results.find((r: { id: string }) => r.id === ids[2]).favourite).toBe(true);
    const staffView = await (await signInStaff(sale.t.app, '10.90.0.1')).request('GET', `/api/admin/orders/${order.orderId}`);
    expect(staffView.json().results.find((r: { id: string }) => r.id === ids[2]).favourite).toBe(true);
    expect((await favourite(ids[2]!, false)).json().results.every((r: { favourite: boolean }) => !r.favourite)).toBe(true);
    // Only published pictures of this order, and only with the order's proof.
    expect((await favourite(ids[1]!, true)).statusCode).toBe(404);
    const other = await completedOrder();
    expect((await favourite(other.ids[0]!, true)).statusCode).toBe(404);
    expect((await favourite(ids[0]!, true, 'x'.repeat(40))).statusCode).toBe(404);
  });
});
