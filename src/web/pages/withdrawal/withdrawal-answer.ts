// The server's answer to the withdrawal form sent without script (POST /widerruf): the page is rendered again
// with it, as the form with its errors or as the receipt. Given to the page on the server only; such a page is
// sent without the client application, so nothing hydrates it.
import { createContext } from 'react';
import type { WithdrawalOutcome } from '../../../domain/withdrawal.js';

export type WithdrawalField = 'name' | 'reference' | 'email';

export interface WithdrawalReceipt {
  receivedAt: string;
  outcome: WithdrawalOutcome | 'received';
  orderNumber: string | null;
  deadline: string | null;
  email: string;
}

export interface WithdrawalFormAnswer {
  /** What was sent, shown again in the form. */
  values: Record<WithdrawalField, string>;
  /** Per field, the error key (withdrawal.errors.*). */
  errors?: Partial<Record<WithdrawalField, string>>;
  formError?: 'failed' | 'rateLimited';
  receipt?: WithdrawalReceipt;
}

export const WithdrawalAnswerContext = createContext<WithdrawalFormAnswer | null>(null);
