// An order's invoices, each a download: the status page and the buyer's team page list them alike.
import type { ReactNode } from 'react';
import { useI18n } from '../../lib/i18n.js';

interface Invoice {
  id: string;
  number: string;
  kind: 'invoice' | 'cancellation';
  url: string;
}

/** `meta` is what stands beside an invoice's link (its amount, and its date where the page has it). */
export function InvoiceList<I extends Invoice>({ invoices, testId, itemTestId, meta }: { invoices: I[]; testId: string; itemTestId: string; meta: (invoice: I) => ReactNode }) {
  const { t } = useI18n();
  return (
    <ul className="invoice-list" data-testid={testId}>
      {invoices.map((invoice) => (
        <li key={invoice.id}>
          <a href={invoice.url} download data-testid={itemTestId}>
            {t(`tracking.invoices.${invoice.kind}`, { number: invoice.number })}
          </a>
          <span className="invoice-list__meta">{meta(invoice)}</span>
        </li>
      ))}
    </ul>
  );
}
