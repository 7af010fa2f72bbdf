// Tracking an order without its link: the lookup by order number or id and e-mail, counted against the client
// address and the order in the same statement that reads the order (the routes decide the answer), and the
// status link by mail when the order is under guard.
import { and, eq, sql } from 'drizzle-orm';
import type { Language } from '../../../domain/catalog.js';
import { orders } from '../../db/schema.js';
import { countStatement, type RateLimitResult } from '../../http/rate-limit.js';
import { renderStatusLinkMail } from '../../mail/service-mails.js';
import type { OrderRow } from '../orders/order-repository.js';
import { statusUrl } from '../orders/order-tokens.js';
import type { CustomerOrderContext } from './customer-order-context.js';

export function createTracking(ctx: CustomerOrderContext) {
  const { deps } = ctx;
  const { db } = deps;
  const p = sql.placeholder;

  /**
   * A tracking attempt's counts and read (trackingAttempt), prepared once per way of naming the order. The
   * order's key is computed by the database from the row it finds.
   */
  function attemptStatement(byId: boolean) {
    const byReference = byId ? eq(orders.id, p('reference')) : eq(orders.orderNumber, p('reference'));
    const window = { amount: 1, at: p('at'), resetAt: p('resetAt') };
    const address = db
      .$with('address', { hits: sql<number>`address_hits`.as('address_hits'), resetAt: sql<Date | string>`address_reset_at`.as('address_reset_at') })
      .as(sql`${countStatement({ key: p('addressKey'), ...window })} returning hits as address_hits, reset_at as address_reset_at`);
    const withinLimit = sql`${address.hits} <= ${p('limit')}::integer`;
    const orderKey = sql`${p('orderKeyPrefix')}::text || coalesce((select ${orders.id}::text from ${orders} where ${byReference}), ${p('reference')}::text)`;
    const counted = db
      .$with('counted', { key: sql<string>`order_key`.as('order_key'), hits: sql<number>`order_hits`.as('order_hits'), resetAt: sql<Date | string>`order_reset_at`.as('order_reset_at') })
      .as(
        sql`${countStatement({ key: orderKey, ...window, when: sql`(select ${address.hits} from address) <= ${p('limit')}::integer` })}
            returning key as order_key, hits as order_hits, reset_at as order_reset_at`,
      );
    return db
      .with(address, counted)
      .select({ addressHits: address.hits, addressResetAt: address.resetAt, orderKey: counted.key, orderHits: counted.hits, orderResetAt: counted.resetAt, order: orders })
      .from(address)
      .leftJoin(counted, sql`true`)
      .leftJoin(orders, and(byReference, withinLimit))
      .prepare(byId ? 'tracking_attempt_by_id' : 'tracking_attempt_by_number');
  }
  const attemptStatements = { byId: attemptStatement(true), byNumber: attemptStatement(false) };

  /** A fresh status link to the order's own address, in the order's language; true when the mail went out (or into the outbox). */
  async function mailStatusLink(order: OrderRow): Promise<boolean> {
    if (!order.email) return false;
    const language = order.language as Language;
    const mail = renderStatusLinkMail({ language, orderNumber: order.orderNumber, url: statusUrl(deps.publicUrl, deps.appSecret, order.id, deps.now(), language), siteName: deps.site.name });
    const sent = await deps.mailer.sendEmail({ ...mail, to: order.email, template: 'tracking-link', language, orderId: order.id, dedupeKey: `tracking-link:${order.id}:${deps.now().getTime()}` });
    if (!sent.ok) deps.log.error({ orderId: order.id, error: sent.error }, 'tracking link mail failed');
    return sent.ok;
  }

  /**
   * A tracking attempt, counted and read in one statement: one hit against the client address and, only while
   * the address is within `limit`, one against the order the typed reference (number or id) names, under the
   * order's id whichever reference was typed (under the reference when no order has it), and that order,
   * whatever e-mail was typed with it. Tracking compares the e-mail itself and answers a mismatch and a missing
   * order alike. `order` is null when the address is over its limit (then nothing else was counted or read).
   */
  async function trackingAttempt({ reference, addressKey, orderKeyPrefix, limit, windowMs }: { reference: string; addressKey: string; orderKeyPrefix: string; limit: number; windowMs: number }): Promise<{
    address: RateLimitResult;
    order: { found: OrderRow | null; key: string; count: RateLimitResult } | null;
  }> {
    const at = deps.now();
    const statement = /^[0-9a-f-]{36}$/.test(reference) ? attemptStatements.byId : attemptStatements.byNumber;
    const [row] = await statement.execute({
      reference,
      addressKey,
      orderKeyPrefix,
      limit,
      at: at.toISOString(),
      resetAt: new Date(at.getTime() + windowMs).toISOString(),
    });
    const { addressHits, addressResetAt, orderKey: key, orderHits, orderResetAt, order } = row!;
    const result = (hits: number, resetAt: Date | string) => ({ allowed: hits <= limit, hits, resetAt: new Date(resetAt) });
    return {
      address: result(addressHits, addressResetAt),
      order: key === null || orderHits === null || orderResetAt === null ? null : { found: order, key, count: result(orderHits, orderResetAt) },
    };
  }

  return { mailStatusLink, trackingAttempt };
}
