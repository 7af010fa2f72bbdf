// What the customer sees of an order on the status page (and in a tracking answer): the order, its photos and
// published pictures with signed links, its history, redos and invoices, read in one prepared statement.
import { sql } from 'drizzle-orm';
import { PACKAGES, RETENTION, deliveryHours, requiredResultCount, type PackageKey } from '../../../domain/catalog.js';
import { isInProduction } from '../../../domain/order-state.js';
import type { CustomerOrderView } from '../../../domain/order-views.js';
import type { PictureVariant } from '../../../domain/stored-json.js';
import { generatedImages, invoices, orderHistory, orderUploads, revisionRequests } from '../../db/schema.js';
import { settlementSteps } from '../../http/rate-limit.js';
import { invoiceUrl } from '../invoices/invoice-service.js';
import { promisedBy } from '../orders/delay-notices.js';
import { extrasOf, type OrderRow } from '../orders/order-repository.js';
import { thumbnailKey } from '../orders/order-service.js';
import { redoneCount, resultFormat, type CustomerOrderContext } from './customer-order-context.js';
import { ZIP_FORMATS, downloadPath, type ZipFormat } from './download-links.js';

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

/** The formats among the published pictures with their counts, when there are at least two formats. */
export function formatZips(formats: (string | null)[]): { format: ZipFormat; count: number }[] {
  const counts = ZIP_FORMATS.map((format) => ({ format, count: formats.filter((f) => f === format).length })).filter((c) => c.count > 0);
  return counts.length > 1 ? counts : [];
}

export function createOrderStatusView(ctx: CustomerOrderContext) {
  const { deps, requireOrder } = ctx;
  const { db, storage } = deps;
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

  async function viewById(orderId: string) {
    return view(await requireOrder(orderId));
  }

  return { view, viewById };
}

export type OrderStatusView = ReturnType<typeof createOrderStatusView>;
