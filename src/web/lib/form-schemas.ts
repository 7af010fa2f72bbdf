// The schemas the browser checks its forms with, in one module so they load as one file (zod and the rules,
// about 23 KB compressed) and only through form-checks.ts: no page needs them to render or to hydrate.
import { z } from 'zod';
import { billingFields } from '../../domain/order-selection.js';
import { emailSchema } from '../../domain/validation.js';

export { contactFormSchema, emailSchema, fieldErrors, revisionRequestSchema, trackingFormSchema, withdrawalFormSchema } from '../../domain/validation.js';
export { teamCheckoutSchema } from '../../domain/team.js';

/** The order summary's own fields, the checkout's e-mail and billing rules, checked in one pass. */
export const summaryFieldsSchema = z.object({ email: emailSchema, ...billingFields });
