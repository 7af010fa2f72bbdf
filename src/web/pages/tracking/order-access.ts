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

/**
 * The order again, with fresh signed links (they run out after SIGNED_URL_TTL), through the status proof this
 * session holds; null without one or when the server cannot answer.
 */
export async function renewOrder<T>(orderId: string, load: (url: string, token: string) => Promise<T>): Promise<T | null> {
  const token = orderAccessToken(orderId);
  if (!token) return null;
  try {
    return await load(`/api/orders/${orderId}/status`, token);
  } catch {
    return null;
  }
}
