// The schemas the browser checks its forms with, in one module so they load as one file (zod and the rules,
// about 23 KB compressed) and only through form-checks.ts: no page needs them to render or to hydrate.
export { contactFormSchema, emailSchema, fieldErrors, revisionRequestSchema, trackingFormSchema, withdrawalFormSchema } from '../../domain/validation.js';
export { billingFields } from '../../domain/order-selection.js';
export { teamCheckoutSchema } from '../../domain/team.js';
