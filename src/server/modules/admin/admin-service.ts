// The staff back office: order list, dashboard, order detail, status changes, results and their publishing.
// Every change is written to the audit log (who, what, when, which order).
import { addBusinessHours } from '../../../domain/business-hours.js';
import { randomBytes, randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { and, asc, count, desc, eq, gte, ilike, inArray, isNotNull, isNull, not, or, sql } from 'drizzle-orm';
import { RETENTION, deliveryHours, requiredResultCount, type Language, type PackageKey } from '../../../domain/catalog.js';
import { ORDER_STATUSES, checkTransition, nextStatuses, type OrderStatus } from '../../../domain/order-state.js';
import type { SiteInfo } from '../../../domain/site.js';
import type { Database, Executor } from '../../db/client.js';
import { auditLog, contactMessages, generatedImages, orders, revisionRequests, staffUsers } from '../../db/schema.js';
import { AppError, conflict, notFound } from '../../http/errors.js';
import type { Mailer } from '../../mail/mailer.js';
import { renderRevisionAnsweredMail } from '../../mail/service-mails.js';
import { noteIntent, settleIntent } from '../../storage/intents.js';
import type { Storage } from '../../storage/storage.js';
import type { StaffIdentity } from '../auth/auth-service.js';
import { createOrderRepository, extrasOf, type OrderRow } from '../orders/order-repository.js';
import { renderPhotosReadyMail } from '../orders/order-mails.js';
import { statusUrl } from '../orders/order-tokens.js';
import { thumbnailKey } from '../orders/order-service.js';
import { photoQualityView } from '../studio/photo-quality.js';
import { processResultImage } from '../uploads/image-processing.js';

export const PAGE_SIZE = 25;
/** The order list counts matching orders up to this many, then says "more than". */
export const COUNT_LIMIT = 1_000;
export const RESULT_STATUSES = ['draft', 'active', 'archived', 'deleted'] as const;
export type ResultStatus = (typeof RESULT_STATUSES)[number];

export interface AdminDeps {
  db: Database;
  storage: Storage;
  mailer: Mailer;
  appSecret: string;
  publicUrl: string;
  site: SiteInfo;
  signedUrlTtlSeconds: number;
  now: () => Date;
  log: FastifyBaseLogger;
}

function required(order: OrderRow): number {
  return order.package ? requiredResultCount(order.package as PackageKey, extrasOf(order)) : 0;
}

export function createAdminService(deps: AdminDeps) {
  const { db, storage } = deps;

  async function audit(staff: StaffIdentity, action: string, orderId: string | null, details?: Record<string, unknown>) {
    await db.insert(auditLog).values({ actorType: 'staff', staffUserId: staff.id, action, orderId, details: details ?? null, createdAt: deps.now() });
  }

  async function activeCountIn(executor: Executor, orderId: string): Promise<number> {
    const [row] = await executor.select({ n: count() }).from(generatedImages).where(and(eq(generatedImages.orderId, orderId), eq(generatedImages.status, 'active')));
    return Number(row?.n ?? 0);
  }

  async function activeCount(orderId: string): Promise<number> {
    const [row] = await db.select({ n: count() }).from(generatedImages).where(and(eq(generatedImages.orderId, orderId), eq(generatedImages.status, 'active')));
    return Number(row?.n ?? 0);
  }

  async function requireOrder(orderId: string): Promise<OrderRow> {
    const order = await createOrderRepository(db).find(orderId);
    if (!order) throw notFound('notFound');
    return order;
  }

  async function detail(orderId: string) {
    const order = await requireOrder(orderId);
    const repo = createOrderRepository(db);
    const ttl = deps.signedUrlTtlSeconds;
    const [uploads, results, history, revisions, auditRows] = await Promise.all([
      repo.uploads(orderId),
      db.select().from(generatedImages).where(eq(generatedImages.orderId, orderId)).orderBy(asc(generatedImages.createdAt), asc(generatedImages.id)),
      repo.history(orderId),
      db.select().from(revisionRequests).where(eq(revisionRequests.orderId, orderId)).orderBy(desc(revisionRequests.createdAt)),
      db
        .select({ action: auditLog.action, at: auditLog.createdAt, details: auditLog.details, staffEmail: staffUsers.email, actorType: auditLog.actorType })
        .from(auditLog)
        .leftJoin(staffUsers, eq(staffUsers.id, auditLog.staffUserId))
        .where(eq(auditLog.orderId, orderId))
        .orderBy(desc(auditLog.createdAt), desc(auditLog.id)),
    ]);
    const activeResults = results.filter((r) => r.status === 'active').length;
    // A team order lists its members; a member's order names its team (issue 17).
    const teamMembers = order.seats !== null ? await db.select().from(orders).where(eq(orders.teamOrderId, order.id)).orderBy(asc(orders.createdAt)) : [];
    const [team] = order.teamOrderId ? await db.select().from(orders).where(eq(orders.id, order.teamOrderId)) : [];
    return {
      team:
        order.seats !== null
          ? {
              kind: 'team' as const,
              seats: order.seats,
              vatId: order.companyVatId,
              vatTreatment: order.vatTreatment,
              members: teamMembers.map((m) => ({ id: m.id, orderNumber: m.orderNumber, email: m.email, status: m.status, paymentStatus: m.paymentStatus, paidAt: m.paidAt?.toISOString() ?? null })),
            }
          : team
            ? { kind: 'member' as const, teamOrderId: team.id, teamOrderNumber: team.orderNumber, company: team.billingName }
            : null,
      order: {
        id: order.id,
        orderNumber: order.orderNumber,
        status: order.status,
        paymentStatus: order.paymentStatus,
        language: order.language,
        email: order.email,
        firstName: order.firstName,
        lastName: order.lastName,
        billingName: order.billingName,
        billingAddress: order.billingAddress,
        phone: order.phone,
        gender: order.gender,
        styleBase: order.styleBase,
        package: order.package,
        refineLocation: order.refineLocation,
        refineOutfit: order.refineOutfit,
        extras: extrasOf(order),
        packageListCents: order.packageListCents,
        discountCents: order.discountCents,
        packageCents: order.packageCents,
        extrasCents: order.extrasCents,
        netCents: order.netCents,
        vatCents: order.vatCents,
        totalCents: order.totalCents,
        createdAt: order.createdAt.toISOString(),
        orderedAt: order.orderedAt?.toISOString() ?? null,
        paidAt: order.paidAt?.toISOString() ?? null,
        completedAt: order.completedAt?.toISOString() ?? null,
        photosDeletedAt: order.photosDeletedAt?.toISOString() ?? null,
        waiverAcceptedAt: order.waiverAcceptedAt?.toISOString() ?? null,
        waiverTextVersion: order.waiverTextVersion,
      },
      nextStatuses: nextStatuses(order.status as OrderStatus, 'staff'),
      uploads: await Promise.all(
        uploads.map(async (u) => ({
          id: u.id,
          fileName: u.fileName,
          fileSize: u.fileSize,
          width: u.width,
          height: u.height,
          thumbnailUrl: await storage.signedUrl(thumbnailKey(u.storageKey), { expiresInSeconds: ttl }),
          url: await storage.signedUrl(u.storageKey, { expiresInSeconds: ttl }),
          downloadUrl: await storage.signedUrl(u.storageKey, { expiresInSeconds: ttl, downloadName: u.fileName.replace(/[^A-Za-z0-9._-]+/g, '-') || 'foto.jpg' }),
          quality: photoQualityView(u.quality),
        })),
      ),
      results: await Promise.all(
        byIdentity(newestFirst(results)).map(async (r) => ({
          id: r.id,
          fileName: r.fileName,
          fileSize: r.fileSize,
          width: r.width,
          height: r.height,
          status: r.status,
          url: r.status === 'deleted' ? '' : await storage.signedUrl(r.storageKey, { expiresInSeconds: ttl }),
          createdAt: r.createdAt.toISOString(),
          publishedAt: r.publishedAt?.toISOString() ?? null,
          favourite: r.favouriteAt !== null,
          generationType: r.generationType,
          variant: (r.variant as Record<string, unknown> | null) ?? null,
        })),
      ),
      requiredResults: required(order),
      activeResults,
      history: history.map((h) => ({ event: h.event, fromStatus: h.fromStatus, toStatus: h.toStatus, actorType: h.actorType, at: h.createdAt.toISOString() })),
      revisions: revisions.map((r) => ({
        id: r.id,
        message: r.message,
        status: r.status,
        imageIds: r.imageIds,
        dueAt: r.dueAt?.toISOString() ?? null,
        answer: r.answer,
        createdAt: r.createdAt.toISOString(),
        resolvedAt: r.resolvedAt?.toISOString() ?? null,
      })),
      audit: auditRows.map((a) => ({ action: a.action, staffEmail: a.staffEmail ?? (a.actorType === 'staff' ? null : a.actorType), at: a.at.toISOString(), details: a.details })),
    };
  }

  async function sendReadyMail(order: OrderRow) {
    if (!order.email || !order.completedAt) return;
    const language = order.language as Language;
    const langQuery = language === 'de' ? '' : `?lang=${language}`;
    const pkg = order.package as PackageKey;
    const extras = extrasOf(order);
    const day = 24 * 3600 * 1000;
    const rendered = renderPhotosReadyMail({
      language,
      orderNumber: order.orderNumber,
      email: order.email,
      package: pkg,
      style: order.styleBase as never,
      location: order.refineLocation as never,
      outfit: order.refineOutfit as never,
      // This mail lists no package scope; only a generator order's pictures can wear the chosen outfit.
      newOutfits: order.productionMode === 'generator',
      gender: order.gender as never,
      extras,
      photoCount: 0,
      prices: {
        packageListCents: order.packageListCents ?? 0,
        discountPercent: order.discountPercent,
        discountCents: order.discountCents,
        packageCents: order.packageCents ?? 0,
        extras: extras.map((key) => ({ key, cents: key === 'extra_variants' ? order.featureExtraVariantsCents : order.featureExpressDeliveryCents })),
        netCents: order.netCents ?? 0,
        vatCents: order.vatCents ?? 0,
        vatRatePercent: order.taxRatePercent,
        grossCents: order.totalCents ?? 0,
      },
      deliveryHours: deliveryHours(pkg, extras),
      resultCount: await activeCount(order.id),
      orderedAt: order.orderedAt ?? order.createdAt,
      paidAt: order.paidAt,
      waiver: null,
      statusUrl: statusUrl(deps.publicUrl, deps.appSecret, order.id, deps.now(), language),
      termsUrl: `${deps.publicUrl}/agb${langQuery}`,
      privacyUrl: `${deps.publicUrl}/datenschutz${langQuery}`,
      withdrawalUrl: `${deps.publicUrl}/widerruf${langQuery}`,
      site: deps.site,
      deleteAfter: new Date(order.completedAt.getTime() + RETENTION.daysAfterCompletion * day),
      revisionUntil: new Date(order.completedAt.getTime() + RETENTION.revisionDays * day),
    });
    const result = await deps.mailer.sendEmail({
      ...rendered,
      to: order.email,
      language,
      orderId: order.id,
      // One ready mail per completion: a retried request never sends twice, a completion after a revision does.
      dedupeKey: `photos-ready:${order.id}:${order.completedAt.toISOString()}`,
    });
    if (!result.ok) deps.log.error({ orderId: order.id, error: result.error }, 'photos-ready mail failed');
  }

  return {
    detail,

    async list(input: { page: number; status?: OrderStatus; q?: string }) {
      const filters = [isNotNull(orders.orderedAt)];
      if (input.status) filters.push(eq(orders.status, input.status));
      const q = input.q?.trim();
      if (q) {
        const pattern = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        filters.push(or(ilike(orders.orderNumber, pattern), ilike(orders.email, pattern))!);
      }
      const where = and(...filters);
      // Counted up to a limit: an exact count would read every matching order (a year of them) on each page.
      const [countRow] = await db
        .select({ n: count() })
        .from(db.select({ one: sql`1` }).from(orders).where(where).limit(COUNT_LIMIT + 1).as('matching'));
      const counted = Number(countRow?.n ?? 0);
      const page = Math.max(1, input.page);
      // The page's ids first (read from an index alone, offset included), then those 25 orders and the count of
      // their published results: nothing is fetched or counted for the rows the offset skips.
      const pageRows = db
        .select({ id: orders.id, createdAt: orders.createdAt })
        .from(orders)
        .where(where)
        .orderBy(desc(orders.createdAt), desc(orders.id))
        .limit(PAGE_SIZE)
        .offset((page - 1) * PAGE_SIZE)
        .as('page_rows');
      const rows = await db
        .select({
          id: orders.id,
          orderNumber: orders.orderNumber,
          createdAt: orders.createdAt,
          email: orders.email,
          package: orders.package,
          status: orders.status,
          paymentStatus: orders.paymentStatus,
          totalCents: orders.totalCents,
          featureExtraVariants: orders.featureExtraVariants,
          // Written out with the alias: inside the subquery an unqualified "id" would mean the image's id.
          activeResults: sql<number>`(select count(*) from generated_images gi where gi.order_id = "page_rows"."id" and gi.status = 'active')`,
        })
        .from(pageRows)
        .innerJoin(orders, eq(orders.id, pageRows.id))
        .orderBy(desc(pageRows.createdAt), desc(pageRows.id));
      return {
        orders: rows.map((r) => ({
          id: r.id,
          orderNumber: r.orderNumber,
          createdAt: r.createdAt.toISOString(),
          email: r.email,
          package: r.package,
          status: r.status,
          paymentStatus: r.paymentStatus,
          totalCents: r.totalCents,
          activeResults: Number(r.activeResults),
          requiredResults: r.package ? requiredResultCount(r.package as PackageKey, r.featureExtraVariants ? ['extra_variants'] : []) : 0,
        })),
        total: Math.min(counted, COUNT_LIMIT),
        /** False when more orders match than were counted: "more than `total`". */
        totalExact: counted <= COUNT_LIMIT,
        page,
        pageSize: PAGE_SIZE,
      };
    },

    async dashboard() {
      const now = deps.now();
      const counted = await db.select({ status: orders.status, n: count() }).from(orders).where(isNotNull(orders.orderedAt)).groupBy(orders.status);
      const counts = Object.fromEntries(ORDER_STATUSES.map((s) => [s, Number(counted.find((c) => c.status === s)?.n ?? 0)]));
      const waitingRows = await db
        .select()
        .from(orders)
        // A team order has no pictures of its own (its members' orders are listed, each with its due time).
        .where(and(inArray(orders.status, ['paid', 'in_progress']), eq(orders.paymentStatus, 'paid'), isNull(orders.seats)))
        .limit(500);
      const revisions = await db
        .select({
          id: revisionRequests.id,
          orderId: revisionRequests.orderId,
          orderNumber: orders.orderNumber,
          message: revisionRequests.message,
          imageIds: revisionRequests.imageIds,
          dueAt: revisionRequests.dueAt,
          createdAt: revisionRequests.createdAt,
        })
        .from(revisionRequests)
        .innerJoin(orders, eq(orders.id, revisionRequests.orderId))
        .where(eq(revisionRequests.status, 'open'))
        .orderBy(asc(revisionRequests.dueAt), asc(revisionRequests.createdAt));
      // Team orders (paid): their seats and how far their members are; members in the list carry their company.
      const teamRows = await db
        .select({
          id: orders.id,
          orderNumber: orders.orderNumber,
          company: orders.billingName,
          seats: orders.seats,
          paidAt: orders.paidAt,
          joined: sql<number>`(select count(*) from orders m where m.team_order_id = "orders"."id" and m.status <> 'cancelled')`,
          submitted: sql<number>`(select count(*) from orders m where m.team_order_id = "orders"."id" and m.payment_status = 'paid')`,
          delivered: sql<number>`(select count(*) from orders m where m.team_order_id = "orders"."id" and m.status = 'completed')`,
        })
        .from(orders)
        .where(and(isNotNull(orders.seats), eq(orders.paymentStatus, 'paid')))
        .orderBy(desc(orders.paidAt))
        .limit(100);
      const teamIds = [...new Set(waitingRows.map((o) => o.teamOrderId).filter((id): id is string => id !== null))];
      const companies = new Map(
        (teamIds.length ? await db.select({ id: orders.id, company: orders.billingName, orderNumber: orders.orderNumber }).from(orders).where(inArray(orders.id, teamIds)) : []).map((t) => [
          t.id,
          { orderId: t.id, orderNumber: t.orderNumber, company: t.company },
        ]),
      );
      const openRedos = new Map(revisions.filter((r) => r.dueAt).map((r) => [r.orderId, r.dueAt!]));
      const waiting = waitingRows
        .map((o) => {
          const extras = extrasOf(o);
          const hours = o.package ? deliveryHours(o.package as PackageKey, extras) : 48;
          // A redo is due on its own time (customer-orders requestRevision).
          const redoDue = openRedos.get(o.id);
          const dueAt = redoDue ?? addBusinessHours(o.paidAt ?? o.createdAt, hours);
          // The customer deleted their photos while the order was being made: the job stopped; staff must get in touch.
          const photosDeleted = o.photosDeletedAt !== null;
          return {
            id: o.id,
            orderNumber: o.orderNumber,
            email: o.email,
            package: o.package,
            status: o.status,
            paidAt: o.paidAt?.toISOString() ?? null,
            dueAt,
            overdue: dueAt < now,
            express: hours <= 12,
            photosDeleted,
            redo: redoDue !== undefined,
            team: o.teamOrderId ? (companies.get(o.teamOrderId) ?? null) : null,
          };
        })
        // Orders that cannot go on without staff first, then by due time.
        .sort((a, b) => Number(b.photosDeleted) - Number(a.photosDeleted) || a.dueAt.getTime() - b.dueAt.getTime())
        .map((w) => ({ ...w, dueAt: w.dueAt.toISOString() }));
      const messages = await db.select().from(contactMessages).where(eq(contactMessages.status, 'new')).orderBy(desc(contactMessages.createdAt)).limit(50);
      return {
        counts,
        waiting,
        teams: teamRows
          .filter((t) => Number(t.delivered) < (t.seats ?? 0))
          .map((t) => ({ ...t, joined: Number(t.joined), submitted: Number(t.submitted), delivered: Number(t.delivered), paidAt: t.paidAt?.toISOString() ?? null })),
        revisions: revisions.map(({ imageIds, ...r }) => ({ ...r, pictures: imageIds.length, dueAt: r.dueAt?.toISOString() ?? null, overdue: r.dueAt !== null && r.dueAt < now, createdAt: r.createdAt.toISOString() })),
        contactMessages: messages.map((m) => ({ id: m.id, name: m.name, email: m.email, message: m.message, createdAt: m.createdAt.toISOString() })),
      };
    },

    async setStatus(orderId: string, to: OrderStatus, staff: StaffIdentity) {
      const now = deps.now();
      const updated = await db.transaction(async (tx) => {
        const repo = createOrderRepository(tx);
        const order = await repo.lock(orderId);
        if (!order) throw notFound('notFound');
        const [active] = await tx.select({ n: count() }).from(generatedImages).where(and(eq(generatedImages.orderId, orderId), eq(generatedImages.status, 'active')));
        const check = checkTransition({ from: order.status as OrderStatus, to, actor: 'staff', activeResults: Number(active?.n ?? 0), requiredResults: required(order) });
        if (!check.ok) throw conflict(check.code, check.required !== undefined ? { required: check.required } : undefined);
        const row = await repo.update(orderId, {
          status: to,
          ...(to === 'completed' ? { completedAt: now, photosDeleteAfter: new Date(now.getTime() + RETENTION.daysAfterCompletion * 24 * 3600 * 1000) } : {}),
          ...(to === 'cancelled' ? { cancelledAt: now } : {}),
        });
        if (order.status === 'completed' && to === 'in_progress') {
          // Reopened by staff: nothing is due for deletion while work goes on.
          await repo.update(orderId, { completedAt: null, photosDeleteAfter: null });
        }
        if (to === 'completed') await tx.update(revisionRequests).set({ status: 'done', resolvedAt: now }).where(and(eq(revisionRequests.orderId, orderId), eq(revisionRequests.status, 'open')));
        await repo.addHistory(orderId, { event: 'status_changed', fromStatus: order.status, toStatus: to, actorType: 'staff', actorId: staff.id });
        await tx.insert(auditLog).values({ actorType: 'staff', staffUserId: staff.id, action: 'order.status', orderId, details: { from: order.status, to }, createdAt: now });
        return row;
      });
      if (to === 'completed') await sendReadyMail(updated);
      return detail(orderId);
    },

    async uploadResult(orderId: string, file: { buffer: Buffer; fileName: string | undefined }, staff: StaffIdentity) {
      const order = await requireOrder(orderId);
      if (order.status === 'cancelled' || order.photosDeletedAt) throw conflict('orderLocked');
      const processed = await processResultImage(file.buffer);
      if (!processed.ok) {
        const status = processed.code === 'fileTooLarge' ? 413 : processed.code === 'tooManyPixels' ? 422 : 415;
        throw new AppError(status, processed.code);
      }
      const image = processed.image;
      const key = `results/${orderId}/${randomBytes(16).toString('hex')}.${image.extension}`;
      // Spec: file names keep only letters, digits, dot and hyphen.
      const fileName = (file.fileName ?? `ergebnis.${image.extension}`).replace(/[^A-Za-z0-9.-]+/g, '-').slice(0, 150) || `ergebnis.${image.extension}`;
      await noteIntent(db, [key], deps.now());
      const id = randomUUID();
      try {
        await storage.put(key, image.buffer, { contentType: image.mimeType });
        await db.transaction(async (tx) => {
          await settleIntent(tx, [key]);
          await tx.insert(generatedImages).values({
            id,
            orderId,
            fileName,
            fileSize: image.bytes,
            mimeType: image.mimeType,
            width: image.width,
            height: image.height,
            storageKey: key,
            generationType: 'admin_upload',
            uploadedBy: staff.id,
            status: 'draft',
            createdAt: deps.now(),
          });
        });
      } catch (error) {
        // Nothing stays behind; if even the cleanup fails, the note stays and the deletion job removes the file.
        await storage.delete(key).then(
          () => settleIntent(db, [key]),
          () => {},
        );
        throw error;
      }
      await audit(staff, 'result.upload', orderId, { resultId: id, fileName });
      return { id, fileName, status: 'draft' as const };
    },

    /**
     * Staff answer a redo request and close it: the customer receives the answer by mail. The pictures
     * published since the request replace the ones the customer named (those are archived, as many as there
     * are new ones), and an order reopened for the redo is completed again (a new revision window).
     */
    async closeRevision(orderId: string, revisionId: string, answer: string, staff: StaffIdentity) {
      const now = deps.now();
      const closed = await db.transaction(async (tx) => {
        const repo = createOrderRepository(tx);
        const order = await repo.lock(orderId);
        if (!order) throw notFound('notFound');
        const [revision] = await tx.select().from(revisionRequests).where(and(eq(revisionRequests.id, revisionId), eq(revisionRequests.orderId, orderId)));
        if (!revision) throw notFound('notFound');
        if (revision.status !== 'open') throw conflict('revisionClosed');
        const fresh = await tx
          .select({ id: generatedImages.id })
          .from(generatedImages)
          .where(and(eq(generatedImages.orderId, orderId), eq(generatedImages.status, 'active'), gte(generatedImages.publishedAt, revision.createdAt), revision.imageIds.length ? not(inArray(generatedImages.id, revision.imageIds)) : undefined));
        const replaced = revision.imageIds.slice(0, fresh.length);
        if (replaced.length) {
          await tx.update(generatedImages).set({ status: 'archived', updatedAt: now }).where(and(eq(generatedImages.orderId, orderId), eq(generatedImages.status, 'active'), inArray(generatedImages.id, replaced)));
        }
        await tx.update(revisionRequests).set({ status: 'done', answer, answeredBy: staff.id, resolvedAt: now }).where(eq(revisionRequests.id, revisionId));
        let row = order;
        if (order.status === 'in_progress') {
          const check = checkTransition({ from: 'in_progress', to: 'completed', actor: 'staff', activeResults: await activeCountIn(tx, orderId), requiredResults: required(order) });
          if (!check.ok) throw conflict(check.code, check.required !== undefined ? { required: check.required } : undefined);
          row = await repo.update(orderId, { status: 'completed', completedAt: now, photosDeleteAfter: new Date(now.getTime() + RETENTION.daysAfterCompletion * 24 * 3600 * 1000) });
          await repo.addHistory(orderId, { event: 'revision_answered', fromStatus: 'in_progress', toStatus: 'completed', actorType: 'staff', actorId: staff.id });
        } else {
          await repo.addHistory(orderId, { event: 'revision_answered', fromStatus: order.status, toStatus: order.status, actorType: 'staff', actorId: staff.id });
        }
        await tx.insert(auditLog).values({ actorType: 'staff', staffUserId: staff.id, action: 'revision.close', orderId, details: { revisionId, newPictures: fresh.length, replaced }, createdAt: now });
        return { order: row, newPictures: fresh.length };
      });
      if (closed.order.email) {
        const language = closed.order.language as Language;
        const rendered = renderRevisionAnsweredMail({
          language,
          orderNumber: closed.order.orderNumber,
          answer,
          newPictures: closed.newPictures,
          url: statusUrl(deps.publicUrl, deps.appSecret, orderId, now, language),
          siteName: deps.site.name,
        });
        const result = await deps.mailer.sendEmail({ ...rendered, to: closed.order.email, template: 'revision-answered', language, orderId, dedupeKey: `revision-answered:${revisionId}` });
        if (!result.ok) deps.log.error({ orderId, error: result.error }, 'revision answer mail failed');
      }
      return detail(orderId);
    },

    async setResultStatus(orderId: string, resultId: string, to: ResultStatus, staff: StaffIdentity) {
      // Under the order's row lock: two parallel archives cannot take a completed order below its count.
      const removedKey = await db.transaction(async (tx) => {
        const order = await createOrderRepository(tx).lock(orderId);
        if (!order) throw notFound('notFound');
        const [result] = await tx.select().from(generatedImages).where(and(eq(generatedImages.id, resultId), eq(generatedImages.orderId, orderId)));
        if (!result) throw notFound('notFound');
        if (result.status === 'deleted') throw conflict('resultDeleted');
        if (order.status === 'completed' && result.status === 'active' && to !== 'active') {
          const [active] = await tx.select({ n: count() }).from(generatedImages).where(and(eq(generatedImages.orderId, orderId), eq(generatedImages.status, 'active')));
          // A completed order keeps its promise: it may not drop below the package's count of published images.
          if (Number(active?.n ?? 0) <= required(order)) throw conflict('notEnoughResults', { required: required(order) });
        }
        await tx
          .update(generatedImages)
          .set({ status: to, updatedAt: deps.now(), ...(to === 'active' ? { publishedAt: deps.now() } : {}) })
          .where(eq(generatedImages.id, resultId));
        await tx.insert(auditLog).values({
          actorType: 'staff',
          staffUserId: staff.id,
          action: `result.${to === 'active' ? 'publish' : to === 'archived' ? 'archive' : 'delete'}`,
          orderId,
          details: { resultId, fileName: result.fileName },
          createdAt: deps.now(),
        });
        return to === 'deleted' ? result.storageKey : null;
      });
      if (removedKey) await storage.delete(removedKey);
      return detail(orderId);
    },

  };
}

export type AdminService = ReturnType<typeof createAdminService>;

/**
 * Newest work first: the pictures of the latest run (a generation, a staff upload) at the top, each run in the
 * order it was made (a run starts with its 4:5 portrait).
 */
export function newestFirst<T extends { createdAt: Date; generationType: string; variant: unknown; id: string }>(results: T[]): T[] {
  const runOf = (r: T) => {
    const generation = (r.variant as { generation?: unknown } | null)?.generation;
    return r.generationType !== 'admin_upload' && typeof generation === 'number' ? `${r.generationType}:${generation}` : `upload:${r.id}`;
  };
  const started = new Map<string, number>();
  for (const r of results) started.set(runOf(r), Math.min(started.get(runOf(r)) ?? Infinity, r.createdAt.getTime()));
  return [...results].sort((a, b) => started.get(runOf(b))! - started.get(runOf(a))! || a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id));
}

/** A generated draft's identity check: its distance to the customer's own photos (lower is more alike). */
function identityDistance(variant: unknown): number | null {
  const distance = (variant as { identity?: { distance?: unknown } } | null)?.identity?.distance;
  return typeof distance === 'number' ? distance : null;
}

/**
 * Results in the order they were made, except that the generator's drafts are listed best first (smallest
 * identity distance), so the reviewer starts with the pictures most like the customer.
 */
function byIdentity<T extends { status: string; generationType: string; variant: unknown }>(results: T[]): T[] {
  const scored = (r: T) => r.status === 'draft' && r.generationType === 'external' && identityDistance(r.variant) !== null;
  const drafts = results.filter(scored).sort((a, b) => identityDistance(a.variant)! - identityDistance(b.variant)!);
  let next = 0;
  return results.map((r) => (scored(r) ? drafts[next++]! : r));
}

