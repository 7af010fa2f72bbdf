// What the customer chooses in the wizard, validated the same way in the browser and on the server.
import { z } from 'zod';
import { BASE_STYLES, EXTRA_KEYS, GENDERS, LANGUAGES, LOCATIONS, OUTFITS, PACKAGE_KEYS } from './catalog.js';
import { BILLING_LIMITS, PHOTO_CONSENT_VERSION, WAIVER_TEXT_VERSION, type Selection } from './selection.js';
import { emailSchema, multilineText, plainText } from './validation.js';

export {
  BILLING_LIMITS,
  EMPTY_SELECTION,
  PHOTO_CONSENT_VERSION,
  WAIVER_TEXT_VERSION,
  completeSelection,
  deliverableSelection,
  type CompleteSelection,
  type Selection,
  type SelectionProblem,
} from './selection.js';

export const selectionSchema = z
  .object({
    gender: z.enum(GENDERS).nullable(),
    style: z.enum(BASE_STYLES).nullable(),
    package: z.enum(PACKAGE_KEYS).nullable(),
    location: z.enum(LOCATIONS).nullable(),
    outfit: z.enum(OUTFITS).nullable(),
    extras: z.array(z.enum(EXTRA_KEYS)).max(EXTRA_KEYS.length),
  })
  .strict();

// The selection's type is written out in selection.ts (the browser's steps need it without zod); the schema
// must parse to exactly that shape, which these two lines check at compile time.
type SameShape<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const schemaMatchesSelection: SameShape<z.output<typeof selectionSchema>, Selection> = true;
void schemaMatchesSelection;

export const draftCreateSchema = z
  .object({
    language: z.enum(LANGUAGES),
    selection: selectionSchema,
    photoConsent: z.literal(true, { error: 'photoConsentRequired' }),
    photoConsentVersion: z.literal(PHOTO_CONSENT_VERSION, { error: 'consentOutdated' }),
  })
  .strict();

/**
 * What the invoice font (DejaVu Sans) prints: Latin, Greek and Cyrillic letters with their accents, digits,
 * the usual punctuation, line breaks. Anything else (CJK, emoji) would print as empty boxes on the invoice.
 */
const PRINTABLE_ON_INVOICE = /^[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}\u0300-\u036F\u02B9-\u02BF\u0020-\u0040\u005B-\u0060\u007B-\u007E\u00A0-\u00BF\u00D7\u00F7\u2010-\u2027\u2030-\u203A\u20AC\u2116\n]*$/u;

/**
 * Trimmed text of at most `max` characters; empty counts as not given. No control characters (they would
 * break the PDF); line breaks only where `multiline` (the address).
 */
function optionalText(max: number, options: { multiline?: boolean } = {}) {
  return (options.multiline ? multilineText() : plainText())
    // Pasted text brings odd spaces and invisible characters: plain spaces, nothing invisible.
    .overwrite((value) => value.replace(/[\u00A0\u2000-\u200A\u202F\u205F\u3000]/g, ' ').replace(/[\u200B-\u200D\u2060\uFEFF]/g, ''))
    .trim()
    .max(max, { error: 'inputTooLong' })
    .refine((value) => PRINTABLE_ON_INVOICE.test(value) && !/[\uFF00-\uFFEF]/.test(value), { error: 'billingCharacters' })
    .optional()
    .transform((value) => (value ? value : null));
}

/** The optional billing fields, also checked in the browser before the order button. */
export { optionalText as billingText };
export const billingFields = { billingName: optionalText(BILLING_LIMITS.name), billingAddress: optionalText(BILLING_LIMITS.address, { multiline: true }) };

export const checkoutSchema = z
  .object({
    language: z.enum(LANGUAGES),
    selection: selectionSchema,
    email: emailSchema,
    waiverAccepted: z.literal(true, { error: 'waiverRequired' }),
    waiverTextVersion: z.literal(WAIVER_TEXT_VERSION, { error: 'waiverOutdated' }),
    // Optional, for the invoice (application photos are tax-deductible): a name and a postal address.
    ...billingFields,
  })
  .strict();

export type CheckoutInput = z.output<typeof checkoutSchema>;
