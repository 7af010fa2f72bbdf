// Every language at once, for the server (prerendering and e-mails). The browser uses loadMessages.
import type { Language } from '../domain/catalog.js';
import de from './de/index.js';
import en from './en/index.js';
import es from './es/index.js';
import type { Messages } from './messages.js';

export const ALL_MESSAGES: Record<Language, Messages> = { de, en, es };
