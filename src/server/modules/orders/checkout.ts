// Placing the order: the checkout prices the selection, stores the contract and opens the provider's payment page.
// Every price is computed here from the domain catalogue; the browser only chooses.
import { createHash } from 'node:crypto';
import { PACKAGES, UPLOAD_LIMITS } from '../../../domain/catalog.js';
import { completeSelection, type CheckoutInput, type CompleteSelection } from '../../../domain/order-selection.js';
import { priceOrder } from '../../../domain/pricing.js';
import { textsIn } from '../../../i18n/all-messages.js';
import { conflict, notFound, unprocessable } from '../../http/errors.js';
import { createOrderRepository, type OrderRow } from './order-repository.js';
import { deferMail, type DeferredMail } from '../../mail/deferred-mail.js';
import { isEditable, selectionColumns, type OrderContext } from './order-context.js';

// Longer than the slowest provider call (Stripe: 20 s timeout, 2 retries).
const CHECKOUT_CLAIM_SECONDS = 90;
/** Sessions closer than this to their expiry are not handed out again. */
const SESSION_REUSE_MARGIN_MS = 5 * 60 * 1000;

export function createCheckout(ctx: OrderContext) {
  const { deps, orders, paymentEvents, requireOrder } = ctx;
  const { db, payments } = deps;

  return {
    /**
     * "Zahlungspflichtig bestellen": the contract is formed here, before the payment page.
     * A second click while the first is under way, or later with the same order, gets the same session.
     */
    async checkout(orderId: string, input: CheckoutInput): Promise<{ url: string; sessionId: string }> {
      const order = await requireOrder(orderId);
      if (order.paymentStatus === 'paid' || order.paymentStatus === 'refunded') throw conflict('alreadyPaid');
      if (!isEditable(order)) throw conflict('orderLocked');
      // The team paid for its members' orders and pays for itself through the team checkout (teams module).
      if (order.teamOrderId || order.seats !== null) throw conflict('teamLook');
      const complete = completeSelection(input.selection, deps.capabilities);
      if (!complete.ok) throw unprocessable(complete.code);
      const selection: CompleteSelection = complete.value;
      // A photo still being checked may yet be refused: the order is placed once every photo has its verdict.
      if ((await orders.checkingCount(orderId)) > 0) throw conflict('photosChecking');
      const photoCount = await orders.uploadCount(orderId);
      if (photoCount < UPLOAD_LIMITS.minPhotos) throw unprocessable('notEnoughPhotos', { min: UPLOAD_LIMITS.minPhotos });
      const now = deps.now();
      const price = priceOrder({ package: selection.package, extras: selection.extras, campaign: deps.campaign, now });

      const reusable = (o: OrderRow) =>
        o.providerSessionId &&
        o.providerSessionUrl &&
        o.providerSessionTotalCents === price.grossCents &&
        o.email === input.email &&
        o.package === selection.package &&
        (o.providerSessionExpiresAt?.getTime() ?? 0) > now.getTime() + SESSION_REUSE_MARGIN_MS;
      if (reusable(order)) return { url: order.providerSessionUrl!, sessionId: order.providerSessionId! };

      // Claim the order for this request; a parallel click waits for the claim holder's session.
      type Claim = { session: { url: string; sessionId: string } } | { claimed: boolean };
      const claim = await db.transaction(async (tx): Promise<Claim> => {
        const repo = createOrderRepository(tx);
        const locked = await repo.lock(orderId);
        if (!locked) throw notFound('orderNotFound');
        // A parallel click may have made its session and let go of the order since this request first read it:
        // that session serves this click too (claiming now would expire it and make a second one).
        if (reusable(locked)) return { session: { url: locked.providerSessionUrl!, sessionId: locked.providerSessionId! } };
        const claimAge = locked.checkoutClaimedAt ? now.getTime() - locked.checkoutClaimedAt.getTime() : Infinity;
        if (claimAge < CHECKOUT_CLAIM_SECONDS * 1000) return { claimed: false };
        await repo.update(orderId, { checkoutClaimedAt: now });
        return { claimed: true };
      });
      if ('session' in claim) return claim.session;
      if (!claim.claimed) {
        for (let i = 0; i < 300; i++) {
          await new Promise((r) => setTimeout(r, 100));
          const current = await requireOrder(orderId);
          if (!current.checkoutClaimedAt && current.providerSessionUrl && current.providerSessionId) {
            return { url: current.providerSessionUrl, sessionId: current.providerSessionId };
          }
          if (!current.checkoutClaimedAt) break;
        }
        throw conflict('checkoutInProgress');
      }

      try {
        const fresh = await requireOrder(orderId);
        if (fresh.paymentStatus === 'paid') throw conflict('alreadyPaid');
        if (fresh.providerSessionId) {
          const expired = await payments.expireSession(fresh.providerSessionId);
          if (expired === 'alreadyComplete') {
            const state = await payments.retrieveSession(fresh.providerSessionId);
            if (state.paymentStatus === 'paid') throw conflict('alreadyPaid');
            // A completed but unpaid session is a pending bank debit: do not charge twice.
            throw conflict('paymentPending');
          }
        }
        const t = textsIn(input.language);
        const lineItems = price.lines.map((line) => ({
          name:
            line.kind === 'package'
              ? t(`catalog.packages.${line.key}.name`) + (price.discountPercent ? ` (${t('order.summary.discountLabel', { percent: price.discountPercent })})` : '')
              : t(`catalog.extras.${line.key}.name`),
          amountCents: line.cents,
          quantity: 1,
        }));
        // Stable for a repeated click, new for each later attempt (a retry after a failed payment).
        const placed = (await orders.history(orderId)).filter((h) => h.event === 'order_placed').length;
        const attempt = createHash('sha256')
          .update(JSON.stringify([orderId, input.email, selection, price.grossCents, placed]))
          .digest('hex')
          .slice(0, 32);
        const receivedMail: DeferredMail = { kind: 'orderReceived', key: `order-received:${orderId}:${attempt}`, orderId, data: { orderId } };
        const langQuery = input.language === 'de' ? '' : `&lang=${input.language}`;
        const session = await payments.createCheckoutSession({
          orderId,
          orderNumber: fresh.orderNumber,
          email: input.email,
          language: input.language,
          lineItems,
          totalCents: price.grossCents,
          successUrl: `${deps.publicUrl}/success?order_id=${orderId}&session_id={CHECKOUT_SESSION_ID}${langQuery}`,
          cancelUrl: `${deps.publicUrl}/order/summary?checkout=cancelled${langQuery}`,
          idempotencyKey: `checkout-${attempt}`,
        });
        await db.transaction(async (tx) => {
          const repo = createOrderRepository(tx);
          await repo.update(orderId, {
            ...selectionColumns({ ...selection }),
            language: input.language,
            email: input.email,
            billingName: input.billingName ?? null,
            billingAddress: input.billingAddress ?? null,
            featureCommercialLicense: PACKAGES[selection.package].commercialLicense,
            featureHd: true,
            packageListCents: price.packageListCents,
            discountPercent: price.discountPercent,
            discountCents: price.discountCents,
            campaignId: price.discountPercent ? (deps.campaign?.id ?? null) : null,
            packageCents: price.packageCents,
            featureExtraVariantsCents: price.lines.find((l) => l.key === 'extra_variants')?.cents ?? 0,
            featureExpressDeliveryCents: price.lines.find((l) => l.key === 'express_delivery')?.cents ?? 0,
            extrasCents: price.extrasCents,
            netCents: price.netCents,
            vatCents: price.vatCents,
            taxRatePercent: price.vatRatePercent,
            totalCents: price.grossCents,
            waiverAcceptedAt: now,
            waiverTextVersion: input.waiverTextVersion,
            orderedAt: now,
            paymentProvider: payments.name,
            providerSessionId: session.id,
            providerSessionUrl: session.url,
            providerSessionTotalCents: price.grossCents,
            providerSessionExpiresAt: session.expiresAt,
            paymentStatus: fresh.paymentStatus === 'failed' ? 'pending' : fresh.paymentStatus,
            checkoutClaimedAt: null,
          });
          await repo.addHistory(orderId, { event: 'order_placed', actorType: 'customer', note: `${selection.package} ${price.grossCents}` });
          // The contract's confirmation (docs/rules.md §4) is owed from this commit on.
          await deferMail(tx, receivedMail, now);
        });
        await paymentEvents.sendOwedMail(receivedMail);
        return { url: session.url, sessionId: session.id };
      } catch (error) {
        await db.transaction(async (tx) => {
          await createOrderRepository(tx).update(orderId, { checkoutClaimedAt: null });
        });
        throw error;
      }
    },
  };
}
