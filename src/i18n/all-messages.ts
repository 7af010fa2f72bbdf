// Every language at once, for the server (prerendering, e-mails, PDFs, server messages). The browser uses loadMessages.
import type { Language } from '../domain/catalog.js';
import de from './de/index.js';
import en from './en/index.js';
import es from './es/index.js';
import type { MessageVars } from './format.js';
import { translate, type Messages } from './messages.js';

export const ALL_MESSAGES: Record<Language, Messages> = { de, en, es };

/** Looks up "namespace.path.to.key" (under `prefix`, if given) and fills it. A missing key shows itself. */
export type Texts = (key: string, vars?: MessageVars) => string;

/** The texts of one language, for the server: `textsIn('en', 'mail')('subject.paymentFailed', { number })`. */
export function textsIn(language: Language, prefix?: string): Texts {
  const messages = ALL_MESSAGES[language];
  return (key, vars) => translate(language, messages, prefix ? `${prefix}.${key}` : key, vars);
}
