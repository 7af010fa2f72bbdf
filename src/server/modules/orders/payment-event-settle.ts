// After an event's commit: the mails it owes, sent at once (their jobs send them later should that fail), then
// the harmless rest, without holding whoever waits for the answer longer than SETTLE_BEFORE_ANSWER_MS.
import { sendDeferred, type DeferredMail, type DeferredMailSender } from '../../mail/deferred-mail.js';
import type { EventEffect, PaymentEventDeps } from './payment-event-context.js';

/** How long a provider's event waits for its mails before it is answered; the rest goes on after. */
export const SETTLE_BEFORE_ANSWER_MS = 5_000;

export function createEventSettlement({ log }: Pick<PaymentEventDeps, 'log'>, senders: Record<string, DeferredMailSender>) {
  /** An owed mail at once, right after its commit; if that fails its job sends it later. */
  async function sendOwedMailNow(mail: DeferredMail): Promise<void> {
    try {
      await sendDeferred(senders, mail);
    } catch (error) {
      log.warn({ err: error, mailKey: mail.key }, 'mail not sent yet; its job sends it later');
    }
  }

  /**
   * After the commit: the owed mails, then the harmless rest. Someone waits for the answer (the provider,
   * the customer at the checkout or on the success page): a slow mail server must not hold them, so after
   * SETTLE_BEFORE_ANSWER_MS the answer goes and the work goes on after it; the mails' jobs cover a process
   * that dies meanwhile.
   */
  async function settle(effect: EventEffect): Promise<void> {
    await within(
      (async () => {
        for (const mail of effect.mails ?? []) await sendOwedMailNow(mail);
        if (effect.afterCommit) await effect.afterCommit().catch((error: unknown) => log.error({ err: error }, 'work after a payment event failed'));
      })(),
    );
  }

  async function within(work: Promise<void>): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, SETTLE_BEFORE_ANSWER_MS);
      timer.unref();
    });
    await Promise.race([work, waited]);
    clearTimeout(timer);
  }

  const sendOwedMail = (mail: DeferredMail) => within(sendOwedMailNow(mail));

  return { settle, sendOwedMail };
}
