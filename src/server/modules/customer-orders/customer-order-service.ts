// What a customer sees and does after paying: tracking, the status page, downloads, revisions, deletion.
import { addBusinessHours } from '../../../domain/business-hours.js';
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import yazl from 'yazl';
import { PACKAGES, RETENTION, deliveryHours, requiredResultCount, type Language, type PackageKey } from '../../../domain/catalog.js';
import type { CustomerOrderView } from '../../../domain/order-views.js';
import type { SiteInfo } from '../../../domain/site.js';
import type { PictureVariant } from '../../../domain/stored-json.js';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.js';
import type { Mailer } from '../../mail/mailer.js';
import { renderRevisionReceivedMail, renderStatusLinkMail } from '../../mail/service-mails.js';
import { enqueueRedo } from '../production/redo.js';
import { changeList, redoChanges, type RedoChange } from '../../../studio/redo-reason.js';
import { statusUrl } from '../orders/order-tokens.js';
import { generatedImages, imageDownloads, invoices, orderHistory, orderUploads, orders, revisionRequests } from '../../db/schema.js';
import { AppError, conflict, notFound } from '../../http/errors.js';
import { countStatement, settlementSteps, type RateLimitResult } from '../../http/rate-limit.js';
import { invoiceUrl, type InvoiceService } from '../invoices/invoice-service.js';
import type { Storage } from '../../storage/storage.js';
import { createOrderRepository, extrasOf, type OrderRow } from '../orders/order-repository.js';
import { thumbnailKey } from '../orders/order-service.js';
import { promisedBy } from '../orders/delay-notices.js';
import { isInProduction } from '../../../domain/order-state.js';
import { ZIP_FORMATS, downloadPath, resultDownloadName, type ZipFormat } from './download-links.js';
import { purgeOrderPhotos } from '../retention/purge.js';


export interface CustomerOrderDeps {
  db: Database;
  storage: Storage;
  appSecret: string;
  signedUrlTtlSeconds: number;
  site: SiteInfo;
  /** The PDFs of the order's invoices (the view reads their rows itself, with the rest of it). */
  invoices: Pick<InvoiceService, 'file'>;
  publicUrl: string;
  /** The status link by mail, when tracking is under guard (routes.ts). */
  mailer: Mailer;
  now: () => Date;
  log: FastifyBaseLogger;
}

/** When the photos of an order are due for deletion (docs/rules.md §6). */
export function photosDeleteAfter(order: Pick<OrderRow, 'status' | 'paymentStatus' | 'completedAt' | 'createdAt' | 'cancelledAt'>): Date | null {
  const day = 24 * 3600 * 1000;
  if (order.status === 'completed' && order.completedAt) return new Date(order.completedAt.getTime() + RETENTION.daysAfterCompletion * day);
  if (order.status === 'cancelled' && order.cancelledAt) return new Date(order.cancelledAt.getTime() + RETENTION.daysAfterCompletion * day);
  if (order.paymentStatus !== 'paid' && order.paymentStatus !== 'refunded') return new Date(order.createdAt.getTime() + RETENTION.unpaidDraftHours * 3600 * 1000);
  return null;
}

/**
 * The rows the status view shows besides the order, read in one statement (a lookup's largest share of work was
 * five reads here). Times come as milliseconds since the epoch, microseconds cut off as the driver cuts them
 * for a `Date`, so the view shows the same instants as when each table was read on its own.
 */
type ViewRows = {
  uploads: { id: string; fileName: string; storageKey: string }[];
  /** The published pictures, oldest first. */
  results: { id: string; fileName: string; storageKey: string; variant: PictureVariant | null; favourite: boolean }[];
  history: { event: string; createdAt: number; fromStatus: string | null; toStatus: string | null }[];
  /** Newest first. */
  revisions: { status: string; imageIds: string[]; message: string; answer: string | null; createdAt: number; dueAt: number | null; resolvedAt: number | null }[];
  invoices: { id: string; number: string; kind: string; issuedAt: number; grossCents: number }[];
};

function isoOrNull(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

export function createCustomerOrderService(deps: CustomerOrderDeps) {
  const { db, storage } = deps;

  async function activeResults(orderId: string) {
    return db
      .select()
      .from(generatedImages)
      .where(and(eq(generatedImages.orderId, orderId), eq(generatedImages.status, 'active')))
      .orderBy(asc(generatedImages.createdAt), asc(generatedImages.id));
  }

  const p = sql.placeholder;

  /**
   * The view's read, prepared once: each connection parses it once and reuses its plan, where planning took
   * longer than running it. (Named statements live in the server session: a transaction-mode pooler in front
   * of PostgreSQL must support them.) `settled`: with a tracking attempt's rate-limit settlement in the same
   * statement (settlementSteps).
   */
  function viewStatement(settled: boolean) {
    const orderId = p('orderId');
    const epochMs = (column: string) => sql.raw(`floor(extract(epoch from ${column}) * 1000)`);
    return db
      .with(...(settled ? settlementSteps(db, { reset: p('reset'), undo: p('undo') }) : []))
      .select({
        uploads: sql<ViewRows['uploads']>`(select coalesce(json_agg(json_build_object('id', u.id, 'fileName', u.file_name, 'storageKey', u.storage_key) order by u.upload_order), '[]')
          from ${orderUploads} u where u.order_id = ${orderId} and ${p('withUploads')}::boolean)`,
        results: sql<ViewRows['results']>`(select coalesce(json_agg(json_build_object('id', g.id, 'fileName', g.file_name, 'storageKey', g.storage_key, 'variant', g.variant,
              'favourite', g.favourite_at is not null) order by g.created_at, g.id), '[]')
          from ${generatedImages} g where g.order_id = ${orderId} and g.status = 'active')`,
        history: sql<ViewRows['history']>`(select coalesce(json_agg(json_build_object('event', h.event, 'createdAt', ${epochMs('h.created_at')}, 'fromStatus', h.from_status,
              'toStatus', h.to_status) order by h.created_at, h.id), '[]')
          from ${orderHistory} h where h.order_id = ${orderId})`,
        revisions: sql<ViewRows['revisions']>`(select coalesce(json_agg(json_build_object('status', r.status, 'imageIds', r.image_ids, 'message', r.message, 'answer', r.answer,
              'createdAt', ${epochMs('r.created_at')}, 'dueAt', ${epochMs('r.due_at')}, 'resolvedAt', ${epochMs('r.resolved_at')}) order by r.created_at desc), '[]')
          from ${revisionRequests} r where r.order_id = ${orderId})`,
        invoices: sql<ViewRows['invoices']>`(select coalesce(json_agg(json_build_object('id', i.id, 'number', i.number, 'kind', i.kind, 'issuedAt', ${epochMs('i.issued_at')},
              'grossCents', i.gross_cents) order by i.year, i.sequence), '[]')
          from ${invoices} i where i.order_id = ${orderId})`,
      })
      .from(sql`(select) as one`)
      .prepare(settled ? 'customer_order_view_settled' : 'customer_order_view');
  }
  const viewStatements = { plain: viewStatement(false), settled: viewStatement(true) };

  /**
   * A tracking attempt's counts and read (trackingAttempt), prepared once per way of naming the order. The
   * order's key is computed by the database from the row it finds.
   */
  function attemptStatement(byId: boolean) {
    const byReference = byId ? eq(orders.id, p('reference')) : eq(orders.orderNumber, p('reference'));
    const window = { amount: 1, at: p('at'), resetAt: p('resetAt') };
    const address = db
      .$with('address', { hits: sql<number>`address_hits`.as('address_hits'), resetAt: sql<Date | string>`address_reset_at`.as('address_reset_at') })
      .as(sql`${countStatement({ key: p('addressKey'), ...window })} returning hits as address_hits, reset_at as address_reset_at`);
    const withinLimit = sql`${address.hits} <= ${p('limit')}::integer`;
    const orderKey = sql`${p('orderKeyPrefix')}::text || coalesce((select ${orders.id}::text from ${orders} where ${byReference}), ${p('reference')}::text)`;
    const counted = db
      .$with('counted', { key: sql<string>`order_key`.as('order_key'), hits: sql<number>`order_hits`.as('order_hits'), resetAt: sql<Date | string>`order_reset_at`.as('order_reset_at') })
      .as(
        sql`${countStatement({ key: orderKey, ...window, when: sql`(select ${address.hits} from address) <= ${p('limit')}::integer` })}
            returning key as order_key, hits as order_hits, reset_at as order_reset_at`,
      );
    return db
      .with(address, counted)
      .select({ addressHits: address.hits, addressResetAt: address.resetAt, orderKey: counted.key, orderHits: counted.hits, orderResetAt: counted.resetAt, order: orders })
      .from(address)
      .leftJoin(counted, sql`true`)
      .leftJoin(orders, and(byReference, withinLimit))
      .prepare(byId ? 'tracking_attempt_by_id' : 'tracking_attempt_by_number');
  }
  const attemptStatements = { byId: attemptStatement(true), byNumber: attemptStatement(false) };

  /**
   * What the customer sees of an order. `settle`: a tracking attempt's rate-limit settlement (the keys of
   * settlementSteps), done in the statement of the view's read, so an answer costs one statement less.
   */
  async function view(order: OrderRow, { settle }: { settle?: { reset: string; undo: string } } = {}): Promise<CustomerOrderView> {
    const now = deps.now();
    const ttl = deps.signedUrlTtlSeconds;
    const extras = extrasOf(order);
    const pkg = order.package as PackageKey | null;
    const hours = pkg ? deliveryHours(pkg, extras) : null;
    // The package's time from payment, counted in business hours (the delay notice's rule, delay-notices.ts).
    const promised = promisedBy(order);
    const showUploads = order.status !== 'completed' && !order.photosDeletedAt;
    const [rows] = settle
      ? await viewStatements.settled.execute({ orderId: order.id, withUploads: showUploads, ...settle })
      : await viewStatements.plain.execute({ orderId: order.id, withUploads: showUploads });
    const { uploads, results, history, revisions, invoices: invoiceRows } = rows!;
    const revisionUntil =
      order.status === 'completed' && order.completedAt ? new Date(order.completedAt.getTime() + RETENTION.revisionDays * 24 * 3600 * 1000) : null;
    const deleteAfter = order.photosDeletedAt ? null : photosDeleteAfter(order);
    const openRevision = revisions.find((r) => r.status === 'open') ?? null;
    const budget = pkg ? PACKAGES[pkg].redoPictures : 0;
    return {
      orderId: order.id,
      orderNumber: order.orderNumber,
      status: order.status,
      paymentStatus: order.paymentStatus,
      email: order.email,
      language: order.language,
      package: order.package,
      style: order.styleBase,
      gender: order.gender,
      location: order.refineLocation,
      outfit: order.refineOutfit,
      extras,
      features: {
        hd: order.featureHd,
        extraVariants: order.featureExtraVariants,
        // Premium includes express delivery.
        expressDelivery: order.featureExpressDelivery || (pkg ? PACKAGES[pkg].includesExpress : false),
        commercialLicense: order.featureCommercialLicense,
      },
      totalCents: order.totalCents,
      createdAt: order.createdAt.toISOString(),
      paidAt: order.paidAt?.toISOString() ?? null,
      completedAt: order.completedAt?.toISOString() ?? null,
      deliveryHours: hours,
      // Counted in the studio's business hours (domain/business-hours.ts), as every delivery claim says.
      // A redo has its own due time (requestRevision).
      dueAt: openRevision?.dueAt != null ? new Date(openRevision.dueAt).toISOString() : (promised?.toISOString() ?? null),
      overdue: !openRevision && order.seats === null && isInProduction(order) && !order.photosDeletedAt && promised !== null && promised < now,
      resultCount: pkg ? requiredResultCount(pkg, extras) : null,
      uploads: await Promise.all(
        uploads.map(async (u) => ({ id: u.id, fileName: u.fileName, thumbnailUrl: await storage.signedUrl(thumbnailKey(u.storageKey), { expiresInSeconds: ttl }) })),
      ),
      results: await Promise.all(
        results.map(async (r, index) => ({
          id: r.id,
          n: index + 1,
          fileName: r.fileName,
          format: resultFormat(r.variant),
          favourite: r.favourite,
          redo: openRevision?.imageIds.includes(r.id) ?? false,
          url: await storage.signedUrl(r.storageKey, { expiresInSeconds: ttl }),
          downloadUrl: downloadPath(deps.appSecret, order.id, { kind: 'image', imageId: r.id }, now, ttl),
        })),
      ),
      zipUrl: results.length ? downloadPath(deps.appSecret, order.id, { kind: 'zip' }, now, ttl) : null,
      // One ZIP per format, where the pictures come in more than one.
      formatZips: formatZips(results.map((r) => resultFormat(r.variant))).map(({ format, count }) => ({
        format,
        count,
        url: downloadPath(deps.appSecret, order.id, { kind: 'zip', format }, now, ttl),
      })),
      history: history.map((h) => ({ event: h.event, at: new Date(h.createdAt).toISOString(), fromStatus: h.fromStatus, toStatus: h.toStatus })),
      photosDeleteAfter: deleteAfter?.toISOString() ?? null,
      photosDeletedAt: order.photosDeletedAt?.toISOString() ?? null,
      revision: {
        allowedUntil: revisionUntil && revisionUntil > now && !order.photosDeletedAt ? revisionUntil.toISOString() : null,
        open: openRevision !== null,
        budget,
        remaining: Math.max(0, budget - redoneCount(revisions)),
        current: openRevision
          ? {
              createdAt: new Date(openRevision.createdAt).toISOString(),
              dueAt: isoOrNull(openRevision.dueAt),
              // Past its own due time, photos kept: the redo's delay mail (delay-notices.ts) says the same.
              overdue: openRevision.dueAt !== null && openRevision.dueAt < now.getTime() && !order.photosDeletedAt,
              pictures: openRevision.imageIds.length,
              message: openRevision.message,
            }
          : null,
        answers: revisions
          .filter((r) => r.answer && r.resolvedAt !== null)
          .map((r) => ({ at: new Date(r.resolvedAt!).toISOString(), message: r.answer!, pictures: r.imageIds.length })),
      },
      contact: { email: deps.site.supportEmail, phone: deps.site.phone },
      invoices: invoiceRows.map((invoice) => ({
        id: invoice.id,
        number: invoice.number,
        kind: invoice.kind as 'invoice' | 'cancellation',
        issuedAt: new Date(invoice.issuedAt).toISOString(),
        grossCents: invoice.grossCents,
        url: invoiceUrl('', deps.appSecret, order.id, invoice.id, now),
      })),
    };
  }

  /** The acknowledgement of a redo request; staff's answer is sent by the back office (admin/revisions.ts). */
  async function sendRevisionMail(order: OrderRow, kind: 'received', input: { pictures: number; dueAt: Date; message: string; changes: RedoChange[]; key: string }) {
    if (!order.email) return;
    const language = order.language as Language;
    const rendered = renderRevisionReceivedMail({
      language,
      orderNumber: order.orderNumber,
      pictures: input.pictures,
      dueAt: input.dueAt,
      reason: input.message,
      changes: input.changes,
      byHand: order.productionMode === 'manual',
      url: statusUrl(deps.publicUrl, deps.appSecret, order.id, deps.now(), language),
      siteName: deps.site.name,
    });
    const result = await deps.mailer.sendEmail({ ...rendered, to: order.email, template: `revision-${kind}`, language, orderId: order.id, dedupeKey: `revision-${kind}:${order.id}:${input.key}` });
    if (!result.ok) deps.log.error({ orderId: order.id, error: result.error }, 'revision mail failed');
  }

  async function requireOrder(orderId: string): Promise<OrderRow> {
    const order = await createOrderRepository(db).find(orderId);
    if (!order) throw notFound('notFound');
    return order;
  }

  return {
    async find(orderId: string): Promise<OrderRow | null> {
      return createOrderRepository(db).find(orderId);
    },

    /** A fresh status link to the order's own address, in the order's language. */
    /** True when the mail went out (or into the outbox). */
    async mailStatusLink(order: OrderRow): Promise<boolean> {
      if (!order.email) return false;
      const language = order.language as Language;
      const mail = renderStatusLinkMail({ language, orderNumber: order.orderNumber, url: statusUrl(deps.publicUrl, deps.appSecret, order.id, deps.now(), language), siteName: deps.site.name });
      const sent = await deps.mailer.sendEmail({ ...mail, to: order.email, template: 'tracking-link', language, orderId: order.id, dedupeKey: `tracking-link:${order.id}:${deps.now().getTime()}` });
      if (!sent.ok) deps.log.error({ orderId: order.id, error: sent.error }, 'tracking link mail failed');
      return sent.ok;
    },

    /**
     * A tracking attempt, counted and read in one statement: one hit against the client address and, only while
     * the address is within `limit`, one against the order the typed reference (number or id) names, under the
     * order's id whichever reference was typed (under the reference when no order has it), and that order,
     * whatever e-mail was typed with it. Tracking compares the e-mail itself and answers a mismatch and a missing
     * order alike. `order` is null when the address is over its limit (then nothing else was counted or read).
     */
    async trackingAttempt({ reference, addressKey, orderKeyPrefix, limit, windowMs }: { reference: string; addressKey: string; orderKeyPrefix: string; limit: number; windowMs: number }): Promise<{
      address: RateLimitResult;
      order: { found: OrderRow | null; key: string; count: RateLimitResult } | null;
    }> {
      const at = deps.now();
      const statement = /^[0-9a-f-]{36}$/.test(reference) ? attemptStatements.byId : attemptStatements.byNumber;
      const [row] = await statement.execute({
        reference,
        addressKey,
        orderKeyPrefix,
        limit,
        at: at.toISOString(),
        resetAt: new Date(at.getTime() + windowMs).toISOString(),
      });
      const { addressHits, addressResetAt, orderKey: key, orderHits, orderResetAt, order } = row!;
      const result = (hits: number, resetAt: Date | string) => ({ allowed: hits <= limit, hits, resetAt: new Date(resetAt) });
      return {
        address: result(addressHits, addressResetAt),
        order: key === null || orderHits === null || orderResetAt === null ? null : { found: order, key, count: result(orderHits, orderResetAt) },
      };
    },

    view,

    async invoiceFile(orderId: string, invoiceId: string) {
      return deps.invoices.file(orderId, invoiceId);
    },

    async viewById(orderId: string) {
      return view(await requireOrder(orderId));
    },

    async resultForDownload(orderId: string, imageId: string) {
      const results = await activeResults(orderId);
      const index = results.findIndex((r) => r.id === imageId);
      if (index < 0) throw notFound('notFound');
      const image = results[index]!;
      await db.insert(imageDownloads).values({ orderId, generatedImageId: image.id, kind: 'single', downloadedAt: deps.now() });
      return storage.signedUrl(image.storageKey, { expiresInSeconds: 300, downloadName: resultDownloadName(index + 1, image.fileName) });
    },

    /** All published images as one ZIP, streamed as it is written (never all in memory). */
    async resultsZip(orderId: string, format?: ZipFormat): Promise<{ stream: Readable; fileName: string }> {
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
    },

    /** The customer marks a published picture of their order as a favourite, or no longer. */
    async setFavourite(orderId: string, imageId: string, favourite: boolean) {
      const order = await requireOrder(orderId);
      const updated = await db
        .update(generatedImages)
        .set({ favouriteAt: favourite ? deps.now() : null })
        .where(and(eq(generatedImages.id, imageId), eq(generatedImages.orderId, order.id), eq(generatedImages.status, 'active')))
        .returning({ id: generatedImages.id });
      if (updated.length === 0) throw notFound('notFound');
      return view(order);
    },

    /**
     * A redo before accepting: within RETENTION.revisionDays of delivery the customer names published pictures
     * to be made again (the package's redo budget counts them), with an optional reason. The order goes back
     * into production, due again after the package's delivery time in business hours; the new drafts are
     * made the order's way (redo.ts) and reach the customer through staff review; a mail acknowledges it.
     */
    async requestRevision(orderId: string, input: { imageIds: string[]; message: string }) {
      const now = deps.now();
      const recorded = await db.transaction(async (tx) => {
        const repo = createOrderRepository(tx);
        const order = await repo.lock(orderId);
        if (!order) throw notFound('notFound');
        const until = order.completedAt ? order.completedAt.getTime() + RETENTION.revisionDays * 24 * 3600 * 1000 : 0;
        if (order.status !== 'completed' || until < now.getTime() || order.photosDeletedAt || !order.package) throw conflict('revisionNotAllowed');
        const pkg = order.package as PackageKey;
        const earlier = await tx.select({ imageIds: revisionRequests.imageIds }).from(revisionRequests).where(eq(revisionRequests.orderId, orderId));
        const remaining = PACKAGES[pkg].redoPictures - redoneCount(earlier);
        if (input.imageIds.length > remaining) throw conflict('redoBudgetExceeded', { remaining: Math.max(0, remaining) });
        const images = await tx
          .select()
          .from(generatedImages)
          .where(and(eq(generatedImages.orderId, orderId), eq(generatedImages.status, 'active'), inArray(generatedImages.id, input.imageIds)));
        if (images.length !== input.imageIds.length) throw notFound('notFound');
        const dueAt = addBusinessHours(now, deliveryHours(pkg, extrasOf(order)));
        await tx.insert(revisionRequests).values({ id: randomUUID(), orderId, message: input.message, imageIds: input.imageIds, dueAt, status: 'open', createdAt: now });
        // Nothing is due for deletion while the pictures are made again.
        await repo.update(orderId, { status: 'in_progress', completedAt: null, photosDeleteAfter: null });
        await repo.addHistory(orderId, {
          event: 'revision_requested',
          fromStatus: 'completed',
          toStatus: 'in_progress',
          actorType: 'customer',
          note: `${images.length} ${input.message}`.trim().slice(0, 500),
        });
        // The studio reads the reason for what it can change itself (frame, photo, backdrop); the mail names it.
        const changes = order.productionMode === 'studio' ? redoChanges(input.message) : {};
        await enqueueRedo(tx, order, images, now, changes);
        return { order, dueAt, pictures: images.length, changes };
      });
      await sendRevisionMail(recorded.order, 'received', { pictures: recorded.pictures, dueAt: recorded.dueAt, message: input.message, changes: changeList(recorded.changes), key: now.toISOString() });
      return this.viewById(orderId);
    },

    /** The customer deletes their photos early: uploads and results, files and rows, for good. */
    async deletePhotos(orderId: string) {
      const order = await requireOrder(orderId);
      if (order.photosDeletedAt) return view(order);
      await purgeOrderPhotos({ db, storage, now: deps.now }, orderId, { reason: 'customer', actorType: 'customer' });
      return this.viewById(orderId);
    },

  };
}

export type CustomerOrderService = ReturnType<typeof createCustomerOrderService>;

/** A format's ZIP name part: what the customer's folder of pictures says. */
const ZIP_NAMES: Record<ZipFormat, string> = { portrait: '4x5', square: '1x1', application: '35x45mm' };

/** The formats among the published pictures with their counts, when there are at least two formats. */
export function formatZips(formats: (string | null)[]): { format: ZipFormat; count: number }[] {
  const counts = ZIP_FORMATS.map((format) => ({ format, count: formats.filter((f) => f === format).length })).filter((c) => c.count > 0);
  return counts.length > 1 ? counts : [];
}

/** Pictures asked to be made again so far, over all of an order's revisions (the package's redo budget). */
export function redoneCount(revisions: { imageIds: string[] }[]): number {
  return revisions.reduce((sum, r) => sum + r.imageIds.length, 0);
}

/** The output format a studio or generated picture was made in (its variant says); null for staff uploads. */
export function resultFormat(variant: PictureVariant | null): 'portrait' | 'square' | 'application' | null {
  const format = variant?.format;
  return format === 'portrait' || format === 'square' || format === 'application' ? format : null;
}
