// Team orders (issue 17): a business buys seats of one package for its people, pays once, and fixes one look
// for the whole team; members join by link, upload their own photos and consent themselves. Validated the same
// way in the browser and on the server; the server also checks the VAT ID's format (vat-id.ts) and counts seats.
import { z } from 'zod';
import { BASE_STYLES, LANGUAGES, LOCATIONS, OUTFITS, PACKAGE_KEYS } from './catalog.js';
import { BILLING_LIMITS, billingText } from './order-selection.js';
import { TEAM_LIMITS, TEAM_PHOTO_CONSENT_VERSION } from './team-rules.js';
import { emailSchema, plainText } from './validation.js';

export { MEMBER_PROGRESS, TEAM_LIMITS, TEAM_PHOTO_CONSENT_VERSION, type MemberProgress, type TeamView } from './team-rules.js';

const required = (max: number, options: { multiline?: boolean } = {}) =>
  billingText(max, options).refine((value) => value !== null, { error: 'companyRequired' });

/** The buyer's order: package per person, seats, the team's look and the company's billing data. */
export const teamCheckoutSchema = z
  .object({
    language: z.enum(LANGUAGES),
    email: emailSchema,
    package: z.enum(PACKAGE_KEYS, { error: 'packageRequired' }),
    seats: z.number({ error: 'seatsInvalid' }).int({ error: 'seatsInvalid' }).min(TEAM_LIMITS.minSeats, { error: 'seatsInvalid' }).max(TEAM_LIMITS.maxSeats, { error: 'seatsInvalid' }),
    style: z.enum(BASE_STYLES, { error: 'styleRequired' }),
    location: z.enum(LOCATIONS).nullable(),
    outfit: z.enum(OUTFITS).nullable(),
    companyName: required(BILLING_LIMITS.name),
    companyAddress: required(BILLING_LIMITS.address, { multiline: true }),
    /** Optional: a German company may have a tax number only; any VAT ID given must have a valid format. */
    vatId: plainText().trim().max(20, { error: 'vatIdInvalid' }).optional(),
    /** The buyer orders as a business (§ 14 BGB): no consumer right of withdrawal. */
    businessConfirmed: z.literal(true, { error: 'businessRequired' }),
  })
  .strict();

export type TeamCheckoutInput = z.output<typeof teamCheckoutSchema>;

/** A member accepts the team's link: their own e-mail and language, and their own consent to process face photos. */
export const teamJoinSchema = z
  .object({
    email: emailSchema,
    language: z.enum(LANGUAGES),
    photoConsent: z.literal(true, { error: 'photoConsentRequired' }),
    photoConsentVersion: z.literal(TEAM_PHOTO_CONSENT_VERSION, { error: 'consentOutdated' }),
  })
  .strict();

export const teamInviteSchema = z
  .object({ emails: z.array(emailSchema).min(1, { error: 'emailRequired' }).max(TEAM_LIMITS.maxInvites, { error: 'tooManyInvites' }) })
  .strict();
