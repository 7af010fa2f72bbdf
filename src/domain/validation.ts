// Shared validation schemas: the browser uses them for comfort, the server enforces them.
// Messages are stable error codes that the browser and e-mail templates translate.
import { z } from 'zod';
import { ORDER_NUMBER_PATTERN } from './order-number.js';

export const EMAIL_MAX_LENGTH = 254;

/**
 * Unicode control characters (general category Cc: U+0000-U+001F, U+007F-U+009F). No form field needs one;
 * PostgreSQL refuses NUL in text, and the others break mails, PDFs and log lines.
 */
const CONTROL_CHARACTER = /\p{Cc}/u;
/** The same without the line feed, for the fields that may have several lines. */
const CONTROL_CHARACTER_EXCEPT_LINE_FEED = /[^\n\P{Cc}]/u;
/** Half of a UTF-16 pair without its other half: not a character, and UTF-8 cannot store it. */
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * Whether a text from outside may be kept as it is: no control characters (a line feed only where
 * `multiline`), no lone surrogates. The one rule behind every text field, in the browser and on the server.
 */
export function isPlainText(value: string, options: { multiline?: boolean } = {}): boolean {
  return !(options.multiline ? CONTROL_CHARACTER_EXCEPT_LINE_FEED : CONTROL_CHARACTER).test(value) && !LONE_SURROGATE.test(value);
}

/** Windows and old Mac line breaks (\r\n, \r) as the line feed that multi-line fields keep. */
export function normalizeLineBreaks(value: string): string {
  return value.replace(/\r\n?/g, '\n');
}

/** The first `max` UTF-16 units of a text, without cutting a character made of a surrogate pair in half. */
export function cutText(value: string, max: number): string {
  if (value.length <= max) return value;
  const cut = value.slice(0, max);
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
}

/**
 * A single-line text from outside. Checked before anything else (`abort`), so a control character is
 * answered with 'invalidText' alone; chain `.trim()`, `.min()`, `.max()` after it.
 */
export function plainText(params: { error?: string } = {}) {
  return z.string(params.error ? { error: params.error } : undefined).refine((value) => isPlainText(value), { error: 'invalidText', abort: true });
}

/** A text of several lines (a message, an address): line breaks kept as \n, every other control character refused. */
export function multilineText(params: { error?: string } = {}) {
  return z
    .string(params.error ? { error: params.error } : undefined)
    .overwrite(normalizeLineBreaks)
    .refine((value) => isPlainText(value, { multiline: true }), { error: 'invalidText', abort: true });
}

export const ORDER_ID_MAX_LENGTH = 36;
// Spec section 5: an e-mail of the form x@y.z.
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
// Spec section 5: a UUID of version 1-5 shape.
export const ORDER_ID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-5][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

export const emailSchema = plainText({ error: 'emailRequired' })
  .trim()
  .toLowerCase()
  .min(1, { error: 'emailRequired' })
  .max(EMAIL_MAX_LENGTH, { error: 'inputTooLong' })
  .regex(EMAIL_SHAPE, { error: 'invalidEmail' });

export const orderIdSchema = plainText({ error: 'required' })
  .trim()
  .min(1, { error: 'required' })
  .max(ORDER_ID_MAX_LENGTH, { error: 'inputTooLong' })
  .regex(ORDER_ID_SHAPE, { error: 'invalidOrderId' })
  .transform((id) => id.toLowerCase());

/** Tracking accepts the order id (UUID) or the short order number printed everywhere (BF-XXXXXXXX). */
export const orderReferenceSchema = plainText({ error: 'required' })
  .trim()
  .min(1, { error: 'required' })
  .max(ORDER_ID_MAX_LENGTH, { error: 'inputTooLong' })
  .refine((value) => ORDER_ID_SHAPE.test(value) || ORDER_NUMBER_PATTERN.test(value.toUpperCase()), { error: 'invalidOrderId' })
  .transform((value) => (ORDER_ID_SHAPE.test(value) ? value.toLowerCase() : value.toUpperCase()));

export const trackingFormSchema = z
  .object({
    orderId: z.string({ error: 'required' }),
    email: z.string({ error: 'required' }),
  })
  .strict()
  .superRefine((value, ctx) => {
    // Spec: both fields are required first, then shape and length per field.
    if (value.orderId.trim() === '' || value.email.trim() === '') {
      ctx.addIssue({ code: 'custom', message: 'required', path: [] });
    }
  })
  .pipe(
    z.object({
      orderId: orderReferenceSchema,
      email: emailSchema,
    }),
  );

export const REVISION_MESSAGE_LIMITS = { max: 2000 } as const;
/** The most pictures one redo request names (the package's budget is the real limit, checked on the server). */
export const REDO_MAX_PICTURES = 40;

/** A redo before accepting: the published pictures to make again, and an optional reason. */
export const revisionRequestSchema = z
  .object({
    imageIds: z
      .array(z.uuid({ error: 'picturesRequired' }), { error: 'picturesRequired' })
      .min(1, { error: 'picturesRequired' })
      .max(REDO_MAX_PICTURES, { error: 'redoBudgetExceeded' })
      .refine((ids) => new Set(ids).size === ids.length, { error: 'picturesRequired' }),
    message: multilineText({ error: 'invalidText' }).trim().max(REVISION_MESSAGE_LIMITS.max, { error: 'messageTooLong' }).optional().default(''),
  })
  .strict();

/** Staff close a revision with an answer the customer receives by mail. */
export const revisionAnswerSchema = z
  .object({
    message: multilineText({ error: 'messageRequired' })
      .trim()
      .min(1, { error: 'messageRequired' })
      .max(REVISION_MESSAGE_LIMITS.max, { error: 'messageTooLong' }),
  })
  .strict();

export const CONTACT_LIMITS = { nameMin: 2, nameMax: 100, messageMin: 10, messageMax: 2000, inputMax: 2000 } as const;

/** Spec section 5: patterns in contact input that are refused as suspicious. */
export const SUSPICIOUS_PATTERNS: readonly RegExp[] = [
  /<\s*script\b/i,
  /javascript\s*:/i,
  /\bon[a-z]+\s*=/i,
  /\beval\s*\(/i,
  /\bdocument\./i,
  /\bwindow\./i,
];

export function containsSuspiciousContent(text: string): boolean {
  return SUSPICIOUS_PATTERNS.some((pattern) => pattern.test(text));
}

/** Cleans contact input: cut to 2000 characters, then trimmed (spec section 5). */
export function cleanContactInput(value: unknown): string {
  return typeof value === 'string' ? cutText(value, CONTACT_LIMITS.inputMax).trim() : '';
}

export const contactFormSchema = z
  .object({
    name: z.string({ error: 'nameRequired' }),
    email: z.string({ error: 'emailRequired' }),
    message: z.string({ error: 'messageRequired' }),
  })
  .strict()
  .transform((value) => ({
    name: cleanContactInput(value.name),
    email: cleanContactInput(value.email).toLowerCase(),
    message: cleanContactInput(value.message),
  }))
  .pipe(
    z
      .object({
        name: plainText()
          .min(1, { error: 'nameRequired' })
          .min(CONTACT_LIMITS.nameMin, { error: 'nameTooShort' })
          .max(CONTACT_LIMITS.nameMax, { error: 'nameTooLong' }),
        email: plainText()
          .min(1, { error: 'emailRequired' })
          .max(EMAIL_MAX_LENGTH, { error: 'emailInvalid' })
          .regex(EMAIL_SHAPE, { error: 'emailInvalid' }),
        message: multilineText()
          .min(1, { error: 'messageRequired' })
          .min(CONTACT_LIMITS.messageMin, { error: 'messageTooShort' })
          .max(CONTACT_LIMITS.messageMax, { error: 'messageTooLong' }),
      })
      .superRefine((value, ctx) => {
        if (containsSuspiciousContent(`${value.name}\n${value.email}\n${value.message}`)) {
          ctx.addIssue({ code: 'custom', message: 'suspiciousContent', path: ['message'] });
        }
      }),
  );

export type ContactForm = z.output<typeof contactFormSchema>;
export type TrackingForm = z.output<typeof trackingFormSchema>;

/** Field -> first error code, for forms that show one error per field. */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const field = issue.path.length ? String(issue.path[0]) : '_form';
    if (!(field in out)) out[field] = issue.message;
  }
  return out;
}

/** The withdrawal form ("Vertrag widerrufen", § 356a BGB): who, which order, which e-mail. Errors are codes. */
export const WITHDRAWAL_LIMITS = { name: 100, reference: 40 } as const;

export const withdrawalFormSchema = z
  .object({
    name: plainText({ error: 'nameRequired' }).trim().min(1, { error: 'nameRequired' }).max(WITHDRAWAL_LIMITS.name, { error: 'inputTooLong' }),
    reference: plainText({ error: 'referenceRequired' }).trim().min(1, { error: 'referenceRequired' }).max(WITHDRAWAL_LIMITS.reference, { error: 'inputTooLong' }),
    email: plainText({ error: 'emailInvalid' }).trim().toLowerCase().max(EMAIL_MAX_LENGTH, { error: 'inputTooLong' }).regex(EMAIL_SHAPE, { error: 'emailInvalid' }),
  })
  .strict();

export type WithdrawalForm = z.output<typeof withdrawalFormSchema>;
