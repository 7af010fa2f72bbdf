import { expect, test } from 'vitest';
import { renderSandboxCheckoutPage, SANDBOX_CSS, SANDBOX_CSS_PATH } from './sandbox-checkout-page.js';
import type { SandboxSession } from './sandbox-provider.js';

const ID = 'cs_test_sandbox_0123456789abcdef0123456789abcdef';

function session(overrides: Partial<SandboxSession> = {}): SandboxSession {
  return {
    id: ID,
    orderId: '3f1c9a52-8a0e-4c55-9d7e-2f3b5a1c0d11',
    orderNumber: 'BF-23456789',
    state: 'open',
    amountTotal: 4782,
    currency: 'eur',
    lineItems: [
      { name: 'Pro-Paket', amountCents: 2792, quantity: 1 },
      { name: 'Zusatzvariante', amountCents: 995, quantity: 2 },
    ],
    customerEmail: 'kunde@example.test',
    locale: 'de',
    expiresAt: new Date('2026-11-20T11:00:00Z'),
    continueUrl: `http://shop.test/sandbox/checkout/${ID}`,
    ...overrides,
  };
}

function actions(html: string): string[] {
  return [...html.matchAll(/<form method="post" action="([^"]+)">/g)].map((m) => m[1] ?? '');
}

test('an open session offers card, SEPA, failure and cancel as POST forms', () => {
  const html = renderSandboxCheckoutPage(session(), 'de');
  expect(actions(html)).toEqual(['pay', 'sepaPending', 'fail', 'cancel'].map((o) => `/sandbox/checkout/${ID}/${o}`));
  expect(html).toContain('Mit Karte bezahlen');
});

test('a pending SEPA debit offers only settling it: succeed or fail', () => {
  const html = renderSandboxCheckoutPage(session({ state: 'pendingDebit' }), 'de');
  expect(actions(html)).toEqual([`/sandbox/checkout/${ID}/sepaSucceed`, `/sandbox/checkout/${ID}/fail`]);
  expect(html).toContain('SEPA abschließen: erfolgreich');
});

test('a finished session offers no buttons, only the way back, escaped', () => {
  for (const state of ['paid', 'failed', 'expired'] as const) {
    const html = renderSandboxCheckoutPage(session({ state, continueUrl: 'http://shop.test/abbruch?order=1&payment=failed' }), 'de');
    expect(actions(html)).toEqual([]);
    expect(html).toContain('href="http://shop.test/abbruch?order=1&amp;payment=failed"');
  }
});

test('line items, the total and the order are shown, prices in German format', () => {
  const html = renderSandboxCheckoutPage(session(), 'en');
  expect(html).toContain('<td>Pro-Paket</td><td class="num">1</td><td class="num">27,92\u00a0€</td>');
  expect(html).toContain('<td>Zusatzvariante</td><td class="num">2</td><td class="num">19,90\u00a0€</td>');
  expect(html).toContain('47,82\u00a0€');
  expect(html).toContain('Order BF-23456789 · kunde@example.test');
});

test('the page is marked as a test in each language', () => {
  expect(renderSandboxCheckoutPage(session(), 'de')).toContain('<div class="sandbox-banner" role="alert"><span>TESTMODUS – keine echte Zahlung</span></div>');
  expect(renderSandboxCheckoutPage(session(), 'en')).toContain('TEST MODE – no real payment');
  expect(renderSandboxCheckoutPage(session(), 'es')).toContain('MODO DE PRUEBA – ningún pago real');
  expect(renderSandboxCheckoutPage(session(), 'es')).toContain('<html lang="es">');
  expect(SANDBOX_CSS).toMatch(/\.sandbox-banner\{[^}]*repeating-linear-gradient/);
});

test('values from the session are escaped', () => {
  const html = renderSandboxCheckoutPage(
    session({
      orderNumber: '<b>BF</b>',
      customerEmail: "x'y\"@example.test",
      lineItems: [{ name: '</td><script>alert(1)</script>', amountCents: 4782, quantity: 1 }],
    }),
    'de',
  );
  expect(html).not.toMatch(/<script|<b>/);
  expect(html).toContain('&lt;/td&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
  expect(html).toContain('&lt;b&gt;BF&lt;/b&gt;');
  expect(html).toContain('x&#39;y&quot;@example.test');
});

test('the page works under a CSP without inline code: no scripts, no inline styles, one stylesheet link', () => {
  for (const state of ['open', 'pendingDebit', 'paid'] as const) {
    const html = renderSandboxCheckoutPage(session({ state }), 'de');
    expect(html).not.toMatch(/<script|<style|\sstyle=|\son[a-z]+=/i);
    expect(html).toContain(`<link rel="stylesheet" href="${SANDBOX_CSS_PATH}">`);
  }
  expect(SANDBOX_CSS_PATH).toBe('/sandbox/checkout.css');
});
