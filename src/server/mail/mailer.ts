// One way out for every e-mail: a row in outgoing_mail first, then SMTP if configured.
// Without SMTP the row is the whole delivery: the dev outbox (outbox-routes.ts) shows it.
import { randomUUID } from 'node:crypto';
import { and, eq, lt, or } from 'drizzle-orm';
import type { Language } from '../../domain/catalog.js';
import type { Database } from '../db/client.js';
import { outgoingMail } from '../db/schema.js';

export interface EmailMessage {
  to: string;
  subject: string;
  html: string;
  text: string;
  template: string;
  language: Language;
  orderId?: string | null;
  dedupeKey?: string | null;
  replyTo?: string;
}

export type SendResult =
  /** inFlight: a duplicate whose first attempt has not finished yet (it may still fail). */
  | { ok: true; id: string; transport: 'smtp' | 'outbox'; duplicate: boolean; inFlight?: boolean }
  | { ok: false; id: string | null; error: string };

export interface Mailer {
  readonly transport: 'smtp' | 'outbox';
  sendEmail(message: EmailMessage): Promise<SendResult>;
  verify(): Promise<void>;
  close(): Promise<void>;
}

export interface MailLogger {
  info(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface MailerOptions {
  db: Database;
  smtpUrl: string | undefined;
  from: string;
  logger?: MailLogger;
  /** A row still 'sending' this long after its attempt started belongs to a sender that died; default 5 min. */
  staleSendingMs?: number;
  now?: () => Date;
}

/** Far beyond one SMTP attempt's own limits (15 s connect + 15 s greeting + 60 s socket). */
export const STALE_SENDING_MS = 5 * 60 * 1000;

// Deliberately rough: one address, one @, nothing a header could be smuggled in with.
// Real deliverability is the SMTP server's verdict, recorded as 'failed'.
const ADDRESS = /^[^\s@<>,;:"()[\]\\]+@[^\s@<>,;:"()[\]\\]+\.[^\s@<>,;:"()[\]\\]+$/;
const LINE_BREAK = /[\r\n]/;

export function isPlausibleAddress(value: string): boolean {
  return value.length <= 254 && !LINE_BREAK.test(value) && ADDRESS.test(value);
}

function invalidReason(message: EmailMessage): string | null {
  if (!isPlausibleAddress(message.to)) return 'invalidRecipient';
  if (message.replyTo !== undefined && !isPlausibleAddress(message.replyTo)) return 'invalidReplyTo';
  if (LINE_BREAK.test(message.subject)) return 'invalidSubject';
  if (message.subject.trim() === '') return 'emptySubject';
  return null;
}

function errorText(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}

const silentLogger: MailLogger = { info: () => {}, error: () => {} };

/**
 * nodemailer loads with the first mail over SMTP (or verify()), not with every process: one without SMTP_URL
 * never needs it (issue 22).
 */
async function connectSmtp(url: string) {
  const { default: nodemailer } = await import('nodemailer');
  // Bounded timeouts: nodemailer's defaults (2 min connect, 10 min idle) would hold a
  // request or job for far too long when the relay is unreachable. Values in the URL win.
  return nodemailer.createTransport({ url, connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: 60_000 });
}

export function createMailer(options: MailerOptions): Mailer {
  const { db, from } = options;
  const logger = options.logger ?? silentLogger;
  const staleSendingMs = options.staleSendingMs ?? STALE_SENDING_MS;
  const now = options.now ?? (() => new Date());
  const { smtpUrl } = options;
  const transport: 'smtp' | 'outbox' = smtpUrl ? 'smtp' : 'outbox';
  // Made with the first use; a failed load or setup is tried again by the next use, and its error is that
  // mail's failure (recorded and logged) or verify()'s.
  let smtp: ReturnType<typeof connectSmtp> | null = null;
  function smtpTransport(url: string) {
    smtp ??= connectSmtp(url).catch((error: unknown) => {
      smtp = null;
      throw error;
    });
    return smtp;
  }

  /**
   * Inserts the row, or claims a row with the same dedupe key for another attempt: a failed one, or one left
   * 'sending' by a sender that died mid-attempt (at worst that mail goes out twice; never zero times).
   */
  async function store(message: EmailMessage): Promise<{ id: string; duplicate: boolean; inFlight: boolean }> {
    const attemptedAt = now();
    const status = transport === 'smtp' ? 'sending' : 'outbox';
    const content = {
      template: message.template,
      language: message.language,
      toAddress: message.to,
      fromAddress: from,
      subject: message.subject,
      html: message.html,
      text: message.text,
      orderId: message.orderId ?? null,
      transport,
      status,
      attemptedAt,
    };
    const dedupeKey = message.dedupeKey ?? null;
    const inserted = await db
      .insert(outgoingMail)
      .values({ id: randomUUID(), ...content, dedupeKey })
      .onConflictDoNothing({ target: outgoingMail.dedupeKey })
      .returning({ id: outgoingMail.id });
    if (inserted[0]) return { id: inserted[0].id, duplicate: false, inFlight: false };
    if (dedupeKey === null) throw new Error('outgoing_mail insert returned no row');

    // A failed or abandoned attempt must not block the retry of a job: exactly one caller wins the
    // conditional update, everyone else sees a duplicate.
    const staleBefore = new Date(attemptedAt.getTime() - staleSendingMs);
    const claimed = await db
      .update(outgoingMail)
      .set({ ...content, error: null, providerMessageId: null, sentAt: null })
      .where(
        and(
          eq(outgoingMail.dedupeKey, dedupeKey),
          or(eq(outgoingMail.status, 'failed'), and(eq(outgoingMail.status, 'sending'), lt(outgoingMail.attemptedAt, staleBefore))),
        ),
      )
      .returning({ id: outgoingMail.id });
    if (claimed[0]) return { id: claimed[0].id, duplicate: false, inFlight: false };

    const [existing] = await db
      .select({ id: outgoingMail.id, status: outgoingMail.status })
      .from(outgoingMail)
      .where(eq(outgoingMail.dedupeKey, dedupeKey));
    if (!existing) throw new Error('outgoing_mail row for the dedupe key vanished');
    return { id: existing.id, duplicate: true, inFlight: existing.status === 'sending' };
  }

  async function sendEmail(message: EmailMessage): Promise<SendResult> {
    const invalid = invalidReason(message);
    if (invalid) {
      logger.error({ template: message.template, reason: invalid }, 'mail refused');
      return { ok: false, id: null, error: invalid };
    }

    let stored: { id: string; duplicate: boolean; inFlight: boolean };
    try {
      stored = await store(message);
    } catch (error) {
      logger.error({ template: message.template, err: error }, 'mail could not be stored');
      return { ok: false, id: null, error: errorText(error) };
    }
    const { id } = stored;
    if (stored.duplicate) {
      logger.info({ mailId: id, template: message.template, dedupeKey: message.dedupeKey, inFlight: stored.inFlight }, 'mail already sent for this dedupe key');
      return stored.inFlight ? { ok: true, id, transport, duplicate: true, inFlight: true } : { ok: true, id, transport, duplicate: true };
    }
    if (!smtpUrl) {
      logger.info({ mailId: id, template: message.template }, 'mail stored in the dev outbox');
      return { ok: true, id, transport, duplicate: false };
    }

    let providerMessageId: string;
    try {
      const info = await (await smtpTransport(smtpUrl)).sendMail({
        from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
        ...(message.replyTo ? { replyTo: message.replyTo } : {}),
      });
      providerMessageId = info.messageId;
    } catch (error) {
      const text = errorText(error);
      logger.error({ mailId: id, template: message.template, err: error }, 'mail failed');
      try {
        await db.update(outgoingMail).set({ status: 'failed', error: text }).where(eq(outgoingMail.id, id));
      } catch (updateError) {
        logger.error({ mailId: id, err: updateError }, 'mail failure could not be recorded');
      }
      return { ok: false, id, error: text };
    }

    try {
      await db.update(outgoingMail).set({ status: 'sent', providerMessageId, sentAt: new Date() }).where(eq(outgoingMail.id, id));
    } catch (error) {
      // The mail is out; reporting failure would invite a retry and a second copy.
      logger.error({ mailId: id, err: error }, 'mail sent but its row could not be updated');
    }
    logger.info({ mailId: id, template: message.template }, 'mail sent');
    return { ok: true, id, transport, duplicate: false };
  }

  return {
    transport,
    sendEmail,
    async verify() {
      if (smtpUrl) await (await smtpTransport(smtpUrl)).verify();
    },
    async close() {
      if (smtp) (await smtp).close();
    },
  };
}
