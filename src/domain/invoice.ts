// Invoice numbers and the split of a gross amount into net and VAT (prices include VAT, decisions.md 1).
import { vatFromGross } from './pricing.js';

export type InvoiceKind = 'invoice' | 'cancellation';

/** "RE-2026-000042": one gap-free sequence per year for invoices and cancellation invoices alike. */
export function invoiceNumber(year: number, sequence: number): string {
  return `RE-${year}-${String(sequence).padStart(6, '0')}`;
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

export interface InvoiceParty {
  name: string | null;
  address: string | null;
  email: string | null;
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
