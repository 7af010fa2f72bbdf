// The sandbox's stand-in for Stripe's hosted checkout page: server-rendered, no scripts, no inline
// styles (the CSP allows stylesheets from 'self' only), and unmistakably marked as a test.
import type { Language } from '../../domain/catalog.js';
import { formatMoney } from '../../domain/money.js';
import type { SandboxOutcome, SandboxSession, SandboxSessionState } from './sandbox-provider.js';

/** Served at SANDBOX_CSS_PATH by the route that serves the page. */
export const SANDBOX_CSS_PATH = '/sandbox/checkout.css';

export const SANDBOX_CSS = `*{box-sizing:border-box}
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1c1c1c;background:#f4f4f4;line-height:1.5}
.sandbox-banner{padding:.9rem 1rem;text-align:center;font-weight:700;letter-spacing:.04em;color:#000;
background:repeating-linear-gradient(-45deg,#ffd400 0 18px,#111 18px 36px);border-bottom:4px solid #111}
.sandbox-banner span{display:inline-block;padding:.3rem .8rem;background:#ffd400;border:2px solid #111}
main{max-width:34rem;margin:2rem auto;padding:1.5rem;background:#fff;border:3px dashed #c9a100;border-radius:8px}
h1{font-size:1.4rem;margin:0 0 .25rem}
.meta{color:#555;margin:0 0 1rem;overflow-wrap:anywhere}
table{width:100%;border-collapse:collapse;margin:1rem 0}
td,th{padding:.4rem 0;border-bottom:1px solid #e2e2e2;text-align:left;vertical-align:top}
.num{text-align:right;white-space:nowrap;padding-left:1rem}
tfoot th,tfoot td{font-weight:700;border-bottom:0}
.state{padding:.75rem;border-radius:6px;background:#eef3ff}
.actions{display:grid;gap:.6rem;margin-top:1rem}
.actions form{margin:0}
button{width:100%;padding:.75rem 1rem;font:inherit;font-weight:600;border:2px solid #111;border-radius:6px;cursor:pointer;background:#fff}
button.primary{background:#111;color:#fff}
button.danger{border-color:#b00020;color:#b00020}
a.continue{display:inline-block;margin-top:1rem}
`;

interface Texts {
  banner: string;
  title: string;
  order: string;
  item: string;
  quantity: string;
  amount: string;
  total: string;
  buttons: Record<'pay' | 'sepaPending' | 'fail' | 'cancel' | 'settleSucceed' | 'settleFail', string>;
  states: Record<SandboxSessionState, string>;
  continue: string;
}

const TEXTS: Record<Language, Texts> = {
  de: {
    banner: 'TESTMODUS – keine echte Zahlung',
    title: 'Testkasse',
    order: 'Bestellung',
    item: 'Artikel',
    quantity: 'Menge',
    amount: 'Betrag',
    total: 'Gesamt',
    buttons: {
      pay: 'Mit Karte bezahlen (erfolgreich)',
      sepaPending: 'SEPA-Lastschrift (ausstehend)',
      fail: 'Zahlung fehlgeschlagen',
      cancel: 'Abbrechen',
      settleSucceed: 'SEPA abschließen: erfolgreich',
      settleFail: 'SEPA abschließen: fehlgeschlagen',
    },
    states: {
      open: 'Wählen Sie aus, wie die Testzahlung ausgehen soll.',
      pendingDebit: 'Die SEPA-Lastschrift ist ausstehend. Wie soll sie ausgehen?',
      paid: 'Diese Sitzung ist bezahlt.',
      failed: 'Die Zahlung dieser Sitzung ist fehlgeschlagen.',
      expired: 'Diese Sitzung ist abgelaufen oder abgebrochen.',
    },
    continue: 'Zurück zum Shop',
  },
  en: {
    banner: 'TEST MODE – no real payment',
    title: 'Test checkout',
    order: 'Order',
    item: 'Item',
    quantity: 'Qty',
    amount: 'Amount',
    total: 'Total',
    buttons: {
      pay: 'Pay by card (succeeds)',
      sepaPending: 'SEPA direct debit (pending)',
      fail: 'Payment fails',
      cancel: 'Cancel',
      settleSucceed: 'Settle SEPA: succeed',
      settleFail: 'Settle SEPA: fail',
    },
    states: {
      open: 'Choose how the test payment should end.',
      pendingDebit: 'The SEPA direct debit is pending. How should it end?',
      paid: 'This session is paid.',
      failed: 'The payment for this session failed.',
      expired: 'This session has expired or was cancelled.',
    },
    continue: 'Back to the shop',
  },
  es: {
    banner: 'MODO DE PRUEBA – ningún pago real',
    title: 'Caja de prueba',
    order: 'Pedido',
    item: 'Artículo',
    quantity: 'Cant.',
    amount: 'Importe',
    total: 'Total',
    buttons: {
      pay: 'Pagar con tarjeta (con éxito)',
      sepaPending: 'Domiciliación SEPA (pendiente)',
      fail: 'El pago falla',
      cancel: 'Cancelar',
      settleSucceed: 'Liquidar SEPA: con éxito',
      settleFail: 'Liquidar SEPA: falla',
    },
    states: {
      open: 'Elija cómo debe terminar el pago de prueba.',
      pendingDebit: 'La domiciliación SEPA está pendiente. ¿Cómo debe terminar?',
      paid: 'Esta sesión está pagada.',
      failed: 'El pago de esta sesión ha fallado.',
      expired: 'Esta sesión ha caducado o se ha cancelado.',
    },
    continue: 'Volver a la tienda',
  },
};

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

function button(sessionId: string, outcome: SandboxOutcome, label: string, kind: 'primary' | 'danger' | 'plain'): string {
  const action = `/sandbox/checkout/${encodeURIComponent(sessionId)}/${outcome}`;
  return `<form method="post" action="${escapeHtml(action)}"><button type="submit" class="${kind}">${escapeHtml(label)}</button></form>`;
}

/** The HTML page for GET /sandbox/checkout/:id; every value from the session is escaped. */
export function renderSandboxCheckoutPage(session: SandboxSession, language: Language): string {
  const t = TEXTS[language];
  const rows = session.lineItems
    .map(
      (item) =>
        `<tr><td>${escapeHtml(item.name)}</td><td class="num">${item.quantity}</td><td class="num">${escapeHtml(formatMoney(item.amountCents * item.quantity))}</td></tr>`,
    )
    .join('');
  let actions = '';
  if (session.state === 'open') {
    actions = [
      button(session.id, 'pay', t.buttons.pay, 'primary'),
      button(session.id, 'sepaPending', t.buttons.sepaPending, 'plain'),
      button(session.id, 'fail', t.buttons.fail, 'danger'),
      button(session.id, 'cancel', t.buttons.cancel, 'plain'),
    ].join('');
  } else if (session.state === 'pendingDebit') {
    actions = [button(session.id, 'sepaSucceed', t.buttons.settleSucceed, 'primary'), button(session.id, 'fail', t.buttons.settleFail, 'danger')].join('');
  }
  const body = actions
    ? `<div class="actions">${actions}</div>`
    : `<a class="continue" href="${escapeHtml(session.continueUrl)}">${escapeHtml(t.continue)}</a>`;
  const meta = [session.orderNumber ? `${t.order} ${session.orderNumber}` : null, session.customerEmail].filter((v): v is string => Boolean(v));
  return `<!doctype html>
<html lang="${language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>${escapeHtml(`${t.banner} · ${t.title}`)}</title>
<link rel="stylesheet" href="${SANDBOX_CSS_PATH}">
</head>
<body>
<div class="sandbox-banner" role="alert"><span>${escapeHtml(t.banner)}</span></div>
<main>
<h1>${escapeHtml(t.title)}</h1>
<p class="meta">${meta.map(escapeHtml).join(' · ')}</p>
<table>
<thead><tr><th>${escapeHtml(t.item)}</th><th class="num">${escapeHtml(t.quantity)}</th><th class="num">${escapeHtml(t.amount)}</th></tr></thead>
<tbody>${rows}</tbody>
<tfoot><tr><th colspan="2">${escapeHtml(t.total)}</th><td class="num">${escapeHtml(formatMoney(session.amountTotal))}</td></tr></tfoot>
</table>
<p class="state">${escapeHtml(t.states[session.state])}</p>
${body}
</main>
</body>
</html>
`;
}
