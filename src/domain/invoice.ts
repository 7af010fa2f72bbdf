// Invoice numbers and the split of a gross amount into net and VAT (prices include VAT, docs/rules.md §1).
import { berlinDay } from './dates.js';
import { vatFromGross } from './pricing.js';

export type InvoiceKind = 'invoice' | 'cancellation';

/** "RE-2026-000042": one gap-free sequence per year for invoices and cancellation invoices alike. */
export function invoiceNumber(year: number, sequence: number): string {
  return `RE-${year}-${String(sequence).padStart(6, '0')}`;
}

/** The year an invoice belongs to: the calendar year in Germany when it is issued. */
export function invoiceYear(at: Date): number {
  return Number(berlinDay(at).slice(0, 4));
}

/** Invoices are kept 8 years (§ 147 (3) AO, § 14b (1) UStG as of 2025). */
export const INVOICE_RETENTION_YEARS = 8;

/**
 * The statutory end for an invoice issued at `at`: 8 full calendar years after the year of issue (the
 * period starts at the end of that year, § 147 (4) AO), that is 1 January of the 9th year after it,
 * midnight in Germany.
 */
export function statutoryRetentionEnd(at: Date): Date {
  return new Date(Date.UTC(invoiceYear(at) + INVOICE_RETENTION_YEARS + 1, 0, 1) - 3600 * 1000);
}

/** How long an invoice is kept once its order's photos are deleted: 8 years from then (or longer, see above). */
export function retentionAfterPhotos(deletedAt: Date): Date {
  const until = new Date(deletedAt);
  until.setUTCFullYear(until.getUTCFullYear() + INVOICE_RETENTION_YEARS);
  return until;
}

/**
 * VAT contained in a gross amount, rounded the way the order's price was (vatFromGross, so an invoice
 * shows the VAT the order stored); net is the rest, so net + VAT = gross exactly.
 */
export function splitGross(grossCents: number, ratePercent: number): { netCents: number; vatCents: number; grossCents: number } {
  const vatCents = vatFromGross(grossCents, ratePercent);
  return { netCents: grossCents - vatCents, vatCents, grossCents };
}

export interface InvoiceLine {
  description: string;
  grossCents: number;
}

/**
 * Who is billed, as printed. A business buyer (team orders) also has its VAT ID and how VAT applied: the
 * invoice row has no columns for them, and what it prints must come from the row alone. Absent on invoices
 * of consumers and on those issued before team orders.
 */
export interface InvoiceParty {
  name: string | null;
  address: string | null;
  email: string | null;
  kind?: 'consumer' | 'business';
  /** The buyer's VAT ID (§ 14a (1) UStG: on the invoice when the buyer owes the tax). */
  vatId?: string | null;
  /** 'reverse_charge': the buyer owes the VAT (Art. 196 MwStSystRL); the invoice says so and shows 0 %. */
  vatTreatment?: 'standard' | 'reverse_charge';
}

/** Whether this invoice's buyer owes the VAT (reverse charge), read from the invoice's customer. */
export function isReverseCharge(customer: InvoiceParty): boolean {
  return customer.vatTreatment === 'reverse_charge';
}

export interface InvoiceSeller {
  legalName: string;
  address: string | null;
  email: string;
  phone: string | null;
  vatId: string | null;
  taxNumber: string | null;
  registerEntry: string | null;
}
