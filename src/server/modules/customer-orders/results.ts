// The customer's published pictures: one downloaded through its signed link, all (or those of one format) as a
// ZIP streamed as it is written, and the favourites the customer keeps among them.
import type { Readable } from 'node:stream';
import { and, eq } from 'drizzle-orm';
import yazl from 'yazl';
import { generatedImages, imageDownloads } from '../../db/schema.js';
import { AppError, notFound } from '../../http/errors.js';
import { resultFormat, type CustomerOrderContext } from './customer-order-context.js';
import { resultDownloadName, type ZipFormat } from './download-links.js';
import type { OrderStatusView } from './order-status-view.js';

/** A format's ZIP name part: what the customer's folder of pictures says. */
const ZIP_NAMES: Record<ZipFormat, string> = { portrait: '4x5', square: '1x1', application: '35x45mm' };

export function createResults(ctx: CustomerOrderContext, { view }: OrderStatusView) {
  const { deps, requireOrder, activeResults } = ctx;
  const { db, storage } = deps;

  async function resultForDownload(orderId: string, imageId: string) {
    const results = await activeResults(orderId);
    const index = results.findIndex((r) => r.id === imageId);
    if (index < 0) throw notFound('notFound');
    const image = results[index]!;
    await db.insert(imageDownloads).values({ orderId, generatedImageId: image.id, kind: 'single', downloadedAt: deps.now() });
    return storage.signedUrl(image.storageKey, { expiresInSeconds: 300, downloadName: resultDownloadName(index + 1, image.fileName) });
  }

  /** All published images as one ZIP, streamed as it is written (never all in memory). */
  async function resultsZip(orderId: string, format?: ZipFormat): Promise<{ stream: Readable; fileName: string }> {
    const order = await requireOrder(orderId);
    // Numbered as on the status page, also when only one format is packed.
    const results = (await activeResults(orderId)).map((image, index) => ({ image, n: index + 1 })).filter(({ image }) => !format || resultFormat(image.variant) === format);
    if (!results.length) throw notFound('notFound');
    // A missing file would break the ZIP halfway; find out before the first byte is sent.
    const present = await Promise.all(results.map(({ image }) => storage.exists(image.storageKey)));
    if (present.includes(false)) throw new AppError(503, 'resultsUnavailable');
    await db.insert(imageDownloads).values(results.map(({ image }) => ({ orderId, generatedImageId: image.id, kind: 'zip', downloadedAt: deps.now() })));
    const zip = new yazl.ZipFile();
    const output = zip.outputStream as unknown as Readable;
    results.forEach(({ image, n }) => {
      // JPEG and PNG are compressed already: stored as they are, which is fast and as small.
      zip.addReadStreamLazy(resultDownloadName(n, image.fileName), { compress: false, mtime: image.createdAt }, (callback) => {
        storage.getStream(image.storageKey).then(
          (stream) => {
            stream.on('error', (error: Error) => output.destroy(error));
            callback(null, stream);
          },
          (error: Error) => output.destroy(error),
        );
      });
    });
    // A storage failure after the start ends this download (the browser sees it fail), never the process.
    zip.on('error', (error: Error) => output.destroy(error));
    zip.end();
    return { stream: output, fileName: `bewerbungsfotos-${order.orderNumber}${format ? `-${ZIP_NAMES[format]}` : ''}.zip` };
  }

  /** The customer marks a published picture of their order as a favourite, or no longer. */
  async function setFavourite(orderId: string, imageId: string, favourite: boolean) {
    const order = await requireOrder(orderId);
    const updated = await db
      .update(generatedImages)
      .set({ favouriteAt: favourite ? deps.now() : null })
      .where(and(eq(generatedImages.id, imageId), eq(generatedImages.orderId, order.id), eq(generatedImages.status, 'active')))
      .returning({ id: generatedImages.id });
    if (updated.length === 0) throw notFound('notFound');
    return view(order);
  }

  return { resultForDownload, resultsZip, setFavourite };
}
