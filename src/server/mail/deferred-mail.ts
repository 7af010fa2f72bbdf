// Mails that a committed fact owes the customer (payment received, payment failed, refund made) must go out
// even when the process dies right after the commit, or the mail server is down for an hour. The transaction
// that records the fact also records a job for its mail; right after the commit the mail is sent at once, and
// the job, due a little later, finds it sent (the mail's dedupe key) or sends it, retrying with backoff. A row
// still 'sending' is not taken as sent: the job waits for it, and claims it once its sender is clearly gone.
import type { Executor } from '../db/client.js';
import { handlerOf, type JobHandler } from '../jobs/runner.js';
import { createJobQueue, type Queue } from '../jobs/queue.js';
import type { SendResult } from './mailer.js';

/** Long enough for the immediate attempt after the commit (an SMTP round trip) to finish first. */
export const DEFERRED_MAIL_DELAY_MS = 2 * 60 * 1000;

/** A mail owed (the mail queue's payload). */
export interface DeferredMail {
  /** Which sender renders it (see deferredMailHandler). */
  kind: string;
  /** The mail's dedupe key: the same key never goes out twice. */
  key: string;
  orderId: string | null;
  /** What the sender needs to render it again from the database (ids, never personal data). */
  data: Record<string, string>;
}

/** The deferred mails' queue: a job's payload is the mail it owes. */
export const DEFERRED_MAIL_QUEUE: Queue<DeferredMail> = 'mail';

/** A sender renders the mail from the database and sends it; null when there is nothing to send (no address). */
export type DeferredMailSender = (mail: DeferredMail) => Promise<SendResult | null>;

/** Inside the transaction that makes the mail owed. */
export async function deferMail(tx: Executor, mail: DeferredMail, now: Date): Promise<void> {
  await createJobQueue(tx, () => now).enqueue({
    queue: DEFERRED_MAIL_QUEUE,
    payload: { kind: mail.kind, key: mail.key, orderId: mail.orderId, data: mail.data },
    // Not the order's production work (studio, generator): kept out of the order's job list and its
    // "a job is under way" checks. A mail whose order is gone finds nothing to send.
    orderId: null,
    dedupeKey: mail.key,
    maxAttempts: 8,
    runAt: new Date(now.getTime() + DEFERRED_MAIL_DELAY_MS),
  });
}

export class MailNotSentError extends Error {
  constructor(kind: string, reason: string) {
    super(`${kind} mail not sent: ${reason}`);
    this.name = 'MailNotSentError';
  }
}

/** Sends a deferred mail now; throws when it could not be sent, so a job attempt is retried later. */
export async function sendDeferred(senders: Record<string, DeferredMailSender>, mail: DeferredMail): Promise<void> {
  const sender = senders[mail.kind];
  if (!sender) throw new MailNotSentError(mail.kind, 'no sender for this kind');
  const result = await sender(mail);
  if (result && !result.ok) throw new MailNotSentError(mail.kind, result.error);
  // Another attempt is still under way (or died; after the mailer's stale limit the row is claimed again):
  // the job tries again later rather than counting a mail that may never leave as sent.
  if (result?.ok && result.inFlight) throw new MailNotSentError(mail.kind, 'an earlier attempt is still sending');
}

export function deferredMailHandler(senders: Record<string, DeferredMailSender>): Record<string, JobHandler> {
  return handlerOf(DEFERRED_MAIL_QUEUE, async (job) => {
    const payload = job.payload;
    await sendDeferred(senders, { kind: payload.kind, key: payload.key, orderId: payload.orderId ?? null, data: payload.data ?? {} });
    // A mail is rendered and handed to the server in seconds; one that hangs on a mail server is tried again.
  }, { timeLimitMs: 5 * 60 * 1000 });
}
