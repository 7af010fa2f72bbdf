// Buying a team order: the buyer's checkout (seats of one package, one look, the company's billing data and VAT
// ID, priced on the server) and paying an order that is not paid yet, both through the provider's payment page.
import { randomBytes, randomUUID } from 'node:crypto';
import { and, count, eq } from 'drizzle-orm';
import type { Language } from '../../../domain/catalog.js';
import { orderNumberFromBytes } from '../../../domain/order-number.js';
import { completeSelection } from '../../../domain/order-selection.js';
import { priceTeamOrder } from '../../../domain/pricing.js';
import type { TeamCheckoutInput } from '../../../domain/team.js';
import { checkVatId, vatTreatmentFor } from '../../../domain/vat-id.js';
import { textsIn } from '../../../i18n/all-messages.js';
import { orderHistory } from '../../db/schema.js';
import { conflict, notFound, unprocessable } from '../../http/errors.js';
import { createOrderRepository, type OrderRow } from '../orders/order-repository.js';
import { teamUrl } from '../orders/order-tokens.js';
import type { TeamContext } from './team-context.js';

/** A session this close to its expiry is not handed out again. */
const SESSION_REUSE_MARGIN_MS = 5 * 60 * 1000;
/** Longer than the slowest provider call (Stripe: 20 s timeout, 2 retries). */
const CHECKOUT_CLAIM_MS = 90 * 1000;

export function createTeamCheckout(ctx: TeamContext) {
  const { deps, requireTeam, sendTeamMail } = ctx;
  const { db, now } = deps;

  /**
   * The provider's payment page for the team order's stored price (fixed when the order was placed). Each
   * attempt has its own idempotency key: a repeated request of one attempt gets the same session.
   */
  async function openPayment(team: OrderRow, attempt: number): Promise<OrderRow> {
    const language = team.language as Language;
    const t = textsIn(language);
    const link = teamUrl(deps.publicUrl, deps.appSecret, team.id, now(), language);
    const seats = team.seats ?? 0;
    const session = await deps.payments.createCheckoutSession({
      orderId: team.id,
      orderNumber: team.orderNumber,
      email: team.email ?? '',
      language,
      lineItems: [{ name: t('team.lineItem', { seats, package: t(`catalog.packages.${team.package}.name`) }), amountCents: team.totalCents ?? 0, quantity: 1 }],
      totalCents: team.totalCents ?? 0,
      successUrl: `${link}&paid=1&session_id={CHECKOUT_SESSION_ID}`,
      cancelUrl: `${link}&checkout=cancelled`,
      idempotencyKey: attempt === 0 ? `team-checkout-${team.id}` : `team-checkout-${team.id}-${attempt}`,
    });
    return createOrderRepository(db).update(team.id, {
      paymentProvider: deps.payments.name,
      providerSessionId: session.id,
      providerSessionUrl: session.url,
      providerSessionTotalCents: team.totalCents,
      providerSessionExpiresAt: session.expiresAt,
      paymentStatus: team.paymentStatus === 'failed' ? 'pending' : team.paymentStatus,
    });
  }

  return {
    /**
     * The buyer orders: prices from the catalogue on the server (seats × the package's price; with an EU VAT
     * ID from outside Germany the net only, reverse charge), the order row and the provider's payment page.
     */
    async checkout(input: TeamCheckoutInput): Promise<{ orderId: string; url: string; teamUrl: string }> {
      const look = completeSelection({ gender: 'diverse', style: input.style, package: input.package, location: input.location, outfit: input.outfit, extras: [] }, deps.capabilities);
      if (!look.ok) throw unprocessable(look.code);
      let vatId: string | null = null;
      if (input.vatId) {
        const checked = checkVatId(input.vatId);
        if (!checked.ok) throw unprocessable('vatIdInvalid', { field: 'vatId' });
        vatId = checked.vatId;
      }
      const treatment = vatTreatmentFor(vatId);
      // A reverse-charge invoice must carry the seller's own VAT ID (§ 14a (1) UStG): without one configured
      // (SITE_VAT_ID) the shop cannot invoice without German VAT, and says so rather than issue a wrong invoice.
      if (treatment === 'reverse_charge' && !deps.site.vatId) throw unprocessable('reverseChargeUnavailable', { field: 'vatId' });
      const at = now();
      const price = priceTeamOrder({ package: input.package, seats: input.seats, campaign: deps.campaign, now: at, treatment });
      const id = randomUUID();
      const orderNumber = orderNumberFromBytes(randomBytes(8));
      const repo = createOrderRepository(db);
      const placed = await repo.insert({
        id,
        orderNumber,
        language: input.language,
        email: input.email,
        customerKind: 'business',
        seats: input.seats,
        companyVatId: vatId,
        vatTreatment: treatment,
        billingName: input.companyName,
        billingAddress: input.companyAddress,
        styleBase: look.value.style,
        package: look.value.package,
        refineLocation: look.value.location,
        refineOutfit: look.value.outfit,
        featureHd: true,
        featureCommercialLicense: true,
        packageListCents: price.packageListCents,
        discountPercent: price.discountPercent,
        discountCents: price.discountCents,
        campaignId: price.discountPercent ? (deps.campaign?.id ?? null) : null,
        packageCents: price.packageCents,
        netCents: price.netCents,
        vatCents: price.vatCents,
        taxRatePercent: price.vatRatePercent,
        totalCents: price.grossCents,
        orderedAt: at,
        productionMode: deps.defaultProductionMode,
        createdAt: at,
        updatedAt: at,
      });
      await repo.addHistory(id, { event: 'order_placed', toStatus: 'created', actorType: 'customer', note: `team ${input.seats} × ${input.package} ${price.grossCents}` });
      const ordered = await openPayment(placed, 0);
      // The order's confirmation by e-mail (§ 312i BGB), with the team page.
      await sendTeamMail(input.email, input.language, 'ordered', ordered, `team-ordered:${id}`);
      return { orderId: id, url: ordered.providerSessionUrl!, teamUrl: teamUrl(deps.publicUrl, deps.appSecret, id, at, input.language) };
    },

    /**
     * The buyer pays an order that is not paid yet (the payment page was left, a debit failed, the session
     * expired): the open session again while it is valid, else a new one for the price fixed at the order.
     */
    async pay(teamId: string): Promise<{ url: string }> {
      const team = await requireTeam(teamId);
      if (team.paymentStatus === 'paid' || team.paymentStatus === 'refunded') throw conflict('alreadyPaid');
      if (team.status !== 'created') throw conflict('orderLocked');
      const at = now();
      if (team.providerSessionUrl && team.paymentStatus === 'pending' && (team.providerSessionExpiresAt?.getTime() ?? 0) > at.getTime() + SESSION_REUSE_MARGIN_MS) {
        return { url: team.providerSessionUrl };
      }
      // One new session at a time: a second click while the first is under way is told so.
      const claimed = await db.transaction(async (tx) => {
        const locked = await createOrderRepository(tx).lock(teamId);
        if (!locked) throw notFound('notFound');
        if (locked.checkoutClaimedAt && at.getTime() - locked.checkoutClaimedAt.getTime() < CHECKOUT_CLAIM_MS) return null;
        const attempts = await tx.select({ n: count() }).from(orderHistory).where(and(eq(orderHistory.orderId, teamId), eq(orderHistory.event, 'order_placed')));
        await createOrderRepository(tx).update(teamId, { checkoutClaimedAt: at });
        await createOrderRepository(tx).addHistory(teamId, { event: 'order_placed', actorType: 'customer', note: 'payment page opened again' });
        // The first session was the order's own (attempt 0); each later one has its own key.
        return { row: locked, attempt: Number(attempts[0]?.n ?? 1) };
      });
      if (!claimed) throw conflict('checkoutInProgress');
      try {
        if (claimed.row.providerSessionId) {
          const closed = await deps.payments.expireSession(claimed.row.providerSessionId);
          if (closed === 'alreadyComplete') {
            // A completed session is paid or a bank debit under way: never charge twice.
            const state = await deps.payments.retrieveSession(claimed.row.providerSessionId);
            throw conflict(state.paymentStatus === 'paid' ? 'alreadyPaid' : 'paymentPending');
          }
        }
        const reopened = await openPayment(claimed.row, claimed.attempt);
        return { url: reopened.providerSessionUrl! };
      } finally {
        await createOrderRepository(db).update(teamId, { checkoutClaimedAt: null });
      }
    },
  };
}
