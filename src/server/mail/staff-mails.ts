// Notes to the shop's own support address. Staff work in German (the back office is German only), so these texts
// live here rather than in the customer catalogues; they use the service-mail layout like every other mail.
import { renderServiceMail } from './service-mail.js';

/** A message from the contact form; staff answer it with "reply" (the customer's address is the Reply-To). */
export function renderContactNote(input: { language: string; name: string; email: string; message: string }) {
  return renderServiceMail({
    language: 'de',
    subject: `Kontaktanfrage von ${input.name}`,
    blocks: [
      { kind: 'paragraph', text: `Neue Nachricht über das Kontaktformular (${input.language}).` },
      { kind: 'rows', rows: [['Name', input.name], ['E-Mail', input.email]] },
      { kind: 'paragraph', text: input.message },
    ],
  });
}

/** Money arrived for an order that was already withdrawn or cancelled: staff refund it. */
export function renderPaidAfterCancelNote(input: { orderNumber: string; amount: string }) {
  return renderServiceMail({
    language: 'de',
    subject: `Zahlung für stornierte Bestellung ${input.orderNumber} – bitte erstatten`,
    blocks: [{ kind: 'paragraph', text: `Für die stornierte Bestellung ${input.orderNumber} ist eine Zahlung eingegangen (${input.amount}). Bitte in der Bestellung erstatten.` }],
  });
}

/** A withdrawal declared on the "Vertrag widerrufen" page; the dashboard lists it as well. */
export function renderWithdrawalNote(input: { receivedAt: string; name: string; orderNumber: string | null; reference: string; email: string; outcome: string }) {
  return renderServiceMail({
    language: 'de',
    subject: `Widerruf eingegangen: ${input.orderNumber ?? input.reference}`,
    blocks: [
      { kind: 'paragraph', text: `Widerruf über das Formular „Vertrag widerrufen“ (${input.receivedAt}).` },
      {
        kind: 'rows',
        rows: [
          ['Name', input.name],
          ['Bestellung', input.orderNumber ?? `${input.reference} (keiner Bestellung zugeordnet)`],
          ['E-Mail', input.email],
          ['Ergebnis', input.outcome],
        ],
      },
    ],
  });
}
