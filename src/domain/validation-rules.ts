// The rules behind the validation schemas (validation.ts) that need no schema library: limits, shapes and
// text checks. A browser page imports these to render its form (lengths, patterns) and loads the schemas
// themselves only when the visitor fills the form in (src/web/lib/form-checks.ts).
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

export const ORDER_ID_MAX_LENGTH = 36;
// Spec section 5: an e-mail of the form x@y.z.
export const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
// Spec section 5: a UUID of version 1-5 shape.
export const ORDER_ID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-5][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

export const REVISION_MESSAGE_LIMITS = { max: 2000 } as const;
/** The most pictures one redo request names (the package's budget is the real limit, checked on the server). */
export const REDO_MAX_PICTURES = 40;

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

/** The withdrawal form ("Vertrag widerrufen", § 356a BGB): who, which order, which e-mail. Errors are codes. */
export const WITHDRAWAL_LIMITS = { name: 100, reference: 40 } as const;
