// Proof of access to an order's status page, kept for this browser session after tracking or a mail link.
const KEY = 'order-access';

function read(): Record<string, string> {
  try {
    return JSON.parse(sessionStorage.getItem(KEY) ?? '{}') as Record<string, string>;
  } catch {
    return {};
  }
}

export function rememberOrderAccess(orderId: string, token: string) {
  try {
    sessionStorage.setItem(KEY, JSON.stringify({ ...read(), [orderId]: token }));
  } catch {
    // Without storage the signed link still works.
  }
}

export function orderAccessToken(orderId: string): string | null {
  return read()[orderId] ?? null;
}
