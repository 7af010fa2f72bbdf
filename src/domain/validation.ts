// Shared validation schemas: the browser uses them for comfort, the server enforces them.
// Messages are stable error codes that the browser and e-mail templates translate.
import { z } from 'zod';
import { ORDER_NUMBER_PATTERN } from './order-number.js';
import { CONTACT_LIMITS, EMAIL_MAX_LENGTH, EMAIL_SHAPE, ORDER_ID_MAX_LENGTH, ORDER_ID_SHAPE, REDO_MAX_PICTURES, REVISION_MESSAGE_LIMITS, WITHDRAWAL_LIMITS, cleanContactInput, containsSuspiciousContent, isPlainText, normalizeLineBreaks } from './validation-rules.js';

export {
  CONTACT_LIMITS,
  EMAIL_MAX_LENGTH,
  ORDER_ID_MAX_LENGTH,
  ORDER_ID_SHAPE,
  REDO_MAX_PICTURES,
  REVISION_MESSAGE_LIMITS,
  SUSPICIOUS_PATTERNS,
  WITHDRAWAL_LIMITS,
  cleanContactInput,
  containsSuspiciousContent,
  cutText,
  isPlainText,
  normalizeLineBreaks,
} from './validation-rules.js';

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

export const withdrawalFormSchema = z
  .object({
    name: plainText({ error: 'nameRequired' }).trim().min(1, { error: 'nameRequired' }).max(WITHDRAWAL_LIMITS.name, { error: 'inputTooLong' }),
    reference: plainText({ error: 'referenceRequired' }).trim().min(1, { error: 'referenceRequired' }).max(WITHDRAWAL_LIMITS.reference, { error: 'inputTooLong' }),
    email: plainText({ error: 'emailInvalid' }).trim().toLowerCase().max(EMAIL_MAX_LENGTH, { error: 'inputTooLong' }).regex(EMAIL_SHAPE, { error: 'emailInvalid' }),
  })
  .strict();

export type WithdrawalForm = z.output<typeof withdrawalFormSchema>;
