// Invoices (§ 14 (4) UStG): one per paid order, issued in the payment's own transaction with the next
// number of the year (a counter row that the transaction locks, so concurrent payments queue for it and a
// rolled-back payment gives its number back: no gaps, no duplicates); a cancellation invoice for each
// confirmed refund. PDFs are kept under invoices/, apart from the photos, 8 years after those are deleted.
import { addBusinessHours } from '../../../domain/business-hours.js';
import { randomUUID } from 'node:crypto';
import { and, asc, eq, sql } from 'drizzle-orm';
import { deliveryHours, EXTRAS, PACKAGES, type ExtraKey, type Language, type PackageKey } from '../../../domain/catalog.js';
import { invoiceNumber, invoiceYear, splitGross, statutoryRetentionEnd, type InvoiceKind, type InvoiceLine, type InvoiceParty, type InvoiceSeller } from '../../../domain/invoice.js';
import { berlinDay } from '../../../domain/dates.js';
import type { SiteInfo } from '../../../domain/site.js';
import { textsIn } from '../../../i18n/all-messages.js';
import type { Database, Executor } from '../../db/client.js';
import { invoiceCounters, invoices, orders } from '../../db/schema.js';
import { notFound } from '../../http/errors.js';
import type { Storage } from '../../storage/storage.js';
import { extrasOf, type OrderRow } from '../orders/order-repository.js';
import { invoiceToken } from '../orders/order-tokens.js';
import { renderInvoicePdf } from './invoice-pdf.js';

export type InvoiceRow = typeof invoices.$inferSelect;

/** The customer's download link, signed for this invoice and made now (it expires like a status link). */
export function invoiceUrl(publicUrl: string, secret: string, orderId: string, invoiceId: string, issuedAt: Date): string {
  return `${publicUrl}/api/orders/${orderId}/invoices/${invoiceId}?token=${invoiceToken(secret, orderId, invoiceId, issuedAt)}`;
}

/** The next number of the year, inside the caller's transaction (the counter row stays locked until it ends). */
async function nextSequence(tx: Executor, year: number): Promise<number> {
  const [row] = await tx
    .insert(invoiceCounters)
    .values({ year, lastNumber: 1 })
    .onConflictDoUpdate({ target: invoiceCounters.year, set: { lastNumber: sql`${invoiceCounters.lastNumber} + 1` } })
    .returning({ lastNumber: invoiceCounters.lastNumber });
  return row!.lastNumber;
}


export function sellerOf(site: SiteInfo): InvoiceSeller {
  return {
    legalName: site.legalName,
    address: site.address,
    email: site.supportEmail,
    phone: site.phone,
    vatId: site.vatId,
    taxNumber: site.taxNumber,
    registerEntry: site.registerEntry,
  };
}

/** A company's order of seats for its people (issue 17); its members' own orders point to it. */
function isTeamOrder(order: OrderRow): boolean {
  return order.customerKind === 'business' && order.seats !== null;
}

/** What was bought, in the customer's language, at the prices stored when the order was placed. */
function orderLines(order: OrderRow): InvoiceLine[] {
  const t = textsIn(order.language as Language);
  const pkg = order.package as PackageKey;
  if (isTeamOrder(order)) {
    // One line for all seats, at the total charged (no extras on team orders; net only under reverse charge).
    return [
      {
        description: t('invoice.teamPackageLine', {
          seats: order.seats!,
          package: t(`catalog.packages.${pkg}.name`),
          count: PACKAGES[pkg].imageCount,
          style: t(`catalog.styles.${order.styleBase ?? 'professional'}.name`),
        }),
        grossCents: order.totalCents ?? 0,
      },
    ];
  }
  const extras = extrasOf(order);
  const lines: InvoiceLine[] = [
    {
      description: t('invoice.packageLine', {
        package: t(`catalog.packages.${pkg}.name`),
        count: PACKAGES[pkg].imageCount,
        style: t(`catalog.styles.${order.styleBase ?? 'professional'}.name`),
      }),
      grossCents: order.packageCents ?? 0,
    },
  ];
  const extraCents: Record<ExtraKey, number> = { extra_variants: order.featureExtraVariantsCents, express_delivery: order.featureExpressDeliveryCents };
  for (const extra of extras) {
    lines.push({ description: `${t(`catalog.extras.${extra}.name`)} – ${t(`catalog.extras.${extra}.description`)}`, grossCents: extraCents[extra] || EXTRAS[extra].priceCents });
  }
  return lines;
}

function customerOf(order: OrderRow): InvoiceParty {
  const party: InvoiceParty = { name: order.billingName, address: order.billingAddress, email: order.email };
  if (order.customerKind !== 'business') return party;
  return { ...party, kind: 'business', vatId: order.companyVatId, vatTreatment: vatTreatmentOf(order) };
}

/** Reverse charge only for a business buyer (it needs the buyer's VAT ID); anything else pays German VAT. */
function vatTreatmentOf(order: OrderRow): 'standard' | 'reverse_charge' {
  return order.customerKind === 'business' && order.companyVatId && order.vatTreatment === 'reverse_charge' ? 'reverse_charge' : 'standard';
}

/** The rate on the invoice: none where the buyer owes the tax, whatever rate the order row holds. */
function vatRateOf(order: OrderRow): number {
  return vatTreatmentOf(order) === 'reverse_charge' ? 0 : order.taxRatePercent;
}

export interface InvoiceServiceDeps {
  db: Database;
  storage: Storage;
  site: SiteInfo;
  paymentProviderLabel: string;
  now: () => Date;
}

export function createInvoiceService(deps: InvoiceServiceDeps) {
  const { db, storage } = deps;

  async function insert(tx: Executor, values: { order: OrderRow; kind: InvoiceKind; lines: InvoiceLine[]; at: Date; correctsInvoiceId?: string; refundId?: string }) {
    const year = invoiceYear(values.at);
    const sequence = await nextSequence(tx, year);
    const gross = values.lines.reduce((sum, line) => sum + line.grossCents, 0);
    const rate = vatRateOf(values.order);
    const split = splitGross(gross, rate);
    const [row] = await tx
      .insert(invoices)
      .values({
        id: randomUUID(),
        number: invoiceNumber(year, sequence),
        year,
        sequence,
        kind: values.kind,
        orderId: values.order.id,
        correctsInvoiceId: values.correctsInvoiceId ?? null,
        refundId: values.refundId ?? null,
        language: values.order.language,
        issuedAt: values.at,
        // Invoiced on payment, before the work: the service is due by the package's delivery time. A team order's
        // service is the seats, provided with the payment (each member's pictures follow when they send photos).
        serviceDate:
          values.order.customerKind === 'business'
            ? berlinDay(values.order.paidAt ?? values.at)
            : berlinDay(addBusinessHours(values.order.paidAt ?? values.at, deliveryHours(values.order.package as PackageKey, extrasOf(values.order)))),
        retainUntil: statutoryRetentionEnd(values.at),
        seller: sellerOf(deps.site),
        customer: customerOf(values.order),
        lines: values.lines,
        netCents: split.netCents,
        vatCents: split.vatCents,
        grossCents: split.grossCents,
        vatRatePercent: rate,
        createdAt: values.at,
      })
      .returning();
    return row!;
  }

  async function pdf(invoice: InvoiceRow): Promise<Buffer> {
    const [order] = await db.select().from(orders).where(eq(orders.id, invoice.orderId));
    const corrected = invoice.correctsInvoiceId ? (await db.select().from(invoices).where(eq(invoices.id, invoice.correctsInvoiceId)))[0] : undefined;
    return renderInvoicePdf({
      number: invoice.number,
      kind: invoice.kind as InvoiceKind,
      language: invoice.language as Language,
      issuedAt: invoice.issuedAt,
      serviceDate: invoice.serviceDate,
      orderNumber: order!.orderNumber,
      seller: invoice.seller,
      customer: invoice.customer,
      lines: invoice.lines,
      netCents: invoice.netCents,
      vatCents: invoice.vatCents,
      grossCents: invoice.grossCents,
      vatRatePercent: invoice.vatRatePercent,
      corrects: corrected ? { number: corrected.number, issuedAt: corrected.issuedAt } : null,
      settlement: { provider: deps.paymentProviderLabel, at: invoice.kind === 'invoice' ? (order!.paidAt ?? invoice.issuedAt) : invoice.issuedAt },
    });
  }

  return {
    /**
     * In the payment's transaction: the order's invoice, once. A team member's order never gets one: the
     * team order that paid for its seat has the invoice (members pay nothing and are no party to it).
     */
    async issueForPaidOrder(tx: Executor, order: OrderRow): Promise<InvoiceRow | null> {
      if (order.teamOrderId !== null) return null;
      const [existing] = await tx.select().from(invoices).where(and(eq(invoices.orderId, order.id), eq(invoices.kind, 'invoice')));
      if (existing) return existing;
      return insert(tx, { order, kind: 'invoice', lines: orderLines(order), at: order.paidAt ?? deps.now() });
    },

    /** In the refund confirmation's transaction: a cancellation invoice over the refunded amount. */
    async issueCancellation(tx: Executor, order: OrderRow, refund: { id: string; amountCents: number }): Promise<InvoiceRow> {
      const [existing] = await tx.select().from(invoices).where(eq(invoices.refundId, refund.id));
      if (existing) return existing;
      const [original] = await tx
        .select()
        .from(invoices)
        .where(and(eq(invoices.orderId, order.id), eq(invoices.kind, 'invoice')))
        .orderBy(asc(invoices.year), asc(invoices.sequence))
        .limit(1);
      const t = textsIn(order.language as Language);
      return insert(tx, {
        order,
        kind: 'cancellation',
        lines: [{ description: t('invoice.refundLine', { number: original?.number ?? order.orderNumber }), grossCents: -refund.amountCents }],
        at: deps.now(),
        ...(original ? { correctsInvoiceId: original.id } : {}),
        refundId: refund.id,
      });
    },

    /**
     * In the transaction that takes back a refund which failed after it succeeded: an invoice over the
     * amount again, correcting the cancellation invoice (the money stayed with us after all).
     */
    async issueReversal(tx: Executor, order: OrderRow, refundId: string): Promise<InvoiceRow | null> {
      const [cancellation] = await tx.select().from(invoices).where(eq(invoices.refundId, refundId));
      if (!cancellation) return null;
      const [existing] = await tx.select().from(invoices).where(and(eq(invoices.correctsInvoiceId, cancellation.id), eq(invoices.kind, 'invoice')));
      if (existing) return existing;
      const t = textsIn(order.language as Language);
      return insert(tx, {
        order,
        kind: 'invoice',
        lines: [{ description: t('invoice.reversalLine', { number: cancellation.number }), grossCents: -cancellation.grossCents }],
        at: deps.now(),
        correctsInvoiceId: cancellation.id,
      });
    },

    async forOrder(orderId: string): Promise<InvoiceRow[]> {
      return db.select().from(invoices).where(eq(invoices.orderId, orderId)).orderBy(asc(invoices.year), asc(invoices.sequence));
    },

    /** The stored PDF, made and stored first if it is not there yet. */
    async file(orderId: string, invoiceId: string): Promise<{ buffer: Buffer; fileName: string }> {
      const [invoice] = await db.select().from(invoices).where(and(eq(invoices.id, invoiceId), eq(invoices.orderId, orderId)));
      if (!invoice) throw notFound('notFound');
      const key = invoiceStorageKey(invoice);
      let buffer: Buffer;
      if (invoice.storageKey && (await storage.exists(invoice.storageKey))) buffer = await storage.getBuffer(invoice.storageKey);
      else {
        buffer = await pdf(invoice);
        await storage.put(key, buffer, { contentType: 'application/pdf' });
        await db.update(invoices).set({ storageKey: key }).where(eq(invoices.id, invoice.id));
      }
      return { buffer, fileName: textsIn(invoice.language as Language)('invoice.fileName', { number: invoice.number }) };
    },

    /** Makes and stores the PDFs not stored yet (after a payment or refund; a failure is repaired on download). */
    async storeMissing(orderId: string): Promise<void> {
      for (const invoice of await this.forOrder(orderId)) if (!invoice.storageKey) await this.file(orderId, invoice.id);
    },

  };
}

export type InvoiceService = ReturnType<typeof createInvoiceService>;

/** Where an invoice's PDF lives; fixed by its number, so a PDF stored before its row was updated is still found. */
export function invoiceStorageKey(invoice: Pick<InvoiceRow, 'year' | 'number'>): string {
  return `invoices/${invoice.year}/${invoice.number.toLowerCase()}.pdf`;
}
