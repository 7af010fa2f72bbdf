// Team orders' limits, the member's consent version and the buyer's view, without the schemas (team.ts): the
// team pages render with these and load the schemas only when a form is filled in (src/web/lib/form-checks.ts).
export const TEAM_LIMITS = {
  /** A team is at least two people; one person orders as a customer. */
  minSeats: 2,
  maxSeats: 100,
  /** Addresses per invitation request. */
  maxInvites: 100,
  /** A reminder to one member at most this often. */
  remindAfterHours: 24,
} as const;

/**
 * The version of the member's own consent text (team.join.consent): the photos are processed for the images the
 * company ordered, the company gets the released images only, and unsent photos are deleted after
 * RETENTION.unsentMemberDays. Stored on the member's order as the consumer's consent version is.
 */
export const TEAM_PHOTO_CONSENT_VERSION = '2026-11-26-team';

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
