// Team orders (issue 17): a business buys seats of one package for its people, pays once, and fixes one look
// for the whole team; members join by link, upload their own photos and consent themselves. Validated the same
// way in the browser and on the server; the server also checks the VAT ID's format (vat-id.ts) and counts seats.
import { z } from 'zod';
import { BASE_STYLES, LANGUAGES, LOCATIONS, OUTFITS, PACKAGE_KEYS } from './catalog.js';
import { BILLING_LIMITS, billingText } from './order-selection.js';
import { emailSchema, plainText } from './validation.js';

export const TEAM_LIMITS = {
  /** A team is at least two people; one person orders as a customer. */
  minSeats: 2,
  maxSeats: 100,
  /** Addresses per invitation request. */
  maxInvites: 100,
  /** A reminder to one member at most this often. */
  remindAfterHours: 24,
} as const;

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

/**
 * The version of the member's own consent text (team.join.consent): the photos are processed for the images the
 * company ordered, the company gets the released images only, and unsent photos are deleted after
 * RETENTION.unsentMemberDays. Stored on the member's order as the consumer's consent version is.
 */
export const TEAM_PHOTO_CONSENT_VERSION = '2026-11-26-team';

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

/** Where a member stands, as the buyer's team view shows it (never their photos). */
export const MEMBER_PROGRESS = ['invited', 'joined', 'submitted', 'in_production', 'delivered', 'removed'] as const;
export type MemberProgress = (typeof MEMBER_PROGRESS)[number];

export interface TeamView {
  orderId: string;
  orderNumber: string;
  paymentStatus: string;
  language: string;
  company: { name: string; address: string; vatId: string | null };
  vatTreatment: 'standard' | 'reverse_charge';
  package: string;
  look: { style: string; location: string | null; outfit: string | null };
  seats: number;
  seatsUsed: number;
  /** The join link (while paid and not revoked). */
  joinUrl: string | null;
  members: { id: string; email: string; progress: MemberProgress; joinedAt: string | null; deliveredPictures: number; inviteId: string | null; remindedAt: string | null }[];
  /** Team ZIPs of all published pictures, per format (and the square as a profile picture). */
  zips: { format: 'portrait' | 'square' | 'application' | 'profile'; count: number; url: string }[];
  /** The team order's invoice (and any cancellation invoice), each with its download link. */
  invoices: { id: string; number: string; kind: 'invoice' | 'cancellation'; grossCents: number; url: string }[];
  totalCents: number | null;
  netCents: number | null;
  vatCents: number | null;
}
