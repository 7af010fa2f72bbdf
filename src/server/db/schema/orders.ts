// Orders (a team order's members are orders too), a team's join links and invitations, and the customer's
// requests for new pictures.
import { sql } from 'drizzle-orm';
import { boolean, check, foreignKey, index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, timestampTz, updatedAt } from './columns.js';
import { staffUsers } from './staff.js';

/** A column naming an order; `onDelete` says what deleting the order does to the row. */
export function orderRef(name: string, onDelete: 'cascade' | 'restrict' | 'set null') {
  return uuid(name).references(() => orders.id, { onDelete });
}

export const orders = pgTable(
  'orders',
  {
    id: uuid('id').primaryKey(),
    orderNumber: text('order_number').notNull(),
    status: text('status').notNull().default('created'),
    paymentStatus: text('payment_status').notNull().default('pending'),
    language: text('language').notNull().default('de'),
    email: text('email'),
    firstName: text('first_name'),
    lastName: text('last_name'),
    phone: text('phone'),
    billingName: text('billing_name'),
    billingAddress: text('billing_address'),
    gender: text('gender'),
    styleBase: text('style_base'),
    package: text('package'),
    refineLocation: text('refine_location'),
    refineOutfit: text('refine_outfit'),
    featureExtraVariants: boolean('feature_extra_variants').notNull().default(false),
    featureExpressDelivery: boolean('feature_express_delivery').notNull().default(false),
    featureHd: boolean('feature_hd').notNull().default(true),
    featureCommercialLicense: boolean('feature_commercial_license').notNull().default(false),
    // Every price component as computed by the server at checkout.
    packageListCents: integer('package_list_cents'),
    discountPercent: integer('discount_percent').notNull().default(0),
    discountCents: integer('discount_cents').notNull().default(0),
    campaignId: text('campaign_id'),
    packageCents: integer('package_cents'),
    featureExtraVariantsCents: integer('feature_extra_variants_cents').notNull().default(0),
    featureExpressDeliveryCents: integer('feature_express_delivery_cents').notNull().default(0),
    extrasCents: integer('extras_cents').notNull().default(0),
    netCents: integer('net_cents'),
    vatCents: integer('vat_cents'),
    taxRatePercent: integer('tax_rate_percent').notNull().default(19),
    totalCents: integer('total_cents'),
    // Consents (docs/rules.md §4): when and to which text version.
    photoConsentAt: timestampTz('photo_consent_at'),
    photoConsentVersion: text('photo_consent_version'),
    waiverAcceptedAt: timestampTz('waiver_accepted_at'),
    waiverTextVersion: text('waiver_text_version'),
    orderedAt: timestampTz('ordered_at'),
    paymentProvider: text('payment_provider'),
    providerSessionId: text('provider_session_id'),
    providerPaymentId: text('provider_payment_id'),
    // The open checkout session, so a second click answers with the same payment page.
    providerSessionUrl: text('provider_session_url'),
    providerSessionTotalCents: integer('provider_session_total_cents'),
    providerSessionExpiresAt: timestampTz('provider_session_expires_at'),
    paymentFailedAt: timestampTz('payment_failed_at'),
    // Set while one request creates a checkout session, so a double click waits for it instead of making a second.
    checkoutClaimedAt: timestampTz('checkout_claimed_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    paidAt: timestampTz('paid_at'),
    completedAt: timestampTz('completed_at'),
    cancelledAt: timestampTz('cancelled_at'),
    photosDeleteAfter: timestampTz('photos_delete_after'),
    photosDeletedAt: timestampTz('photos_deleted_at'),
    // Who makes the pictures (staff choose): the studio pipeline, an external generator, or staff by hand.
    productionMode: text('production_mode').notNull().default('studio'),
    // Each "regenerate all" starts a new generation of studio drafts (their keys carry it).
    studioGeneration: integer('studio_generation').notNull().default(0),
    // Confirmed by the provider's refund events only; the payment status is refunded when it reaches the total.
    refundedCents: integer('refunded_cents').notNull().default(0),
    // Team orders (migration 0011): a business buyer, its VAT ID and treatment, the seats it bought; a member's
    // order names the team order that paid for it.
    customerKind: text('customer_kind').notNull().default('consumer'),
    companyVatId: text('company_vat_id'),
    vatTreatment: text('vat_treatment').notNull().default('standard'),
    seats: integer('seats'),
    teamOrderId: uuid('team_order_id'),
  },
  (t) => [
    uniqueIndex('orders_order_number_key').on(t.orderNumber),
    uniqueIndex('orders_provider_session_key').on(t.providerSessionId),
    index('orders_created_at_idx').on(t.createdAt),
    index('orders_status_idx').on(t.status, t.createdAt),
    index('orders_email_idx').on(t.email),
    // The back office's search by any part of an address or order number (migration 0014, pg_trgm).
    index('orders_email_trgm_idx').using('gin', t.email.op('gin_trgm_ops')),
    index('orders_order_number_trgm_idx').using('gin', t.orderNumber.op('gin_trgm_ops')),
    index('orders_photos_delete_after_idx').on(t.photosDeleteAfter),
    check('orders_status_check', sql`${t.status} in ('created','paid','in_progress','completed','cancelled')`),
    check('orders_payment_status_check', sql`${t.paymentStatus} in ('pending','paid','failed','refunded')`),
    check('orders_language_check', sql`${t.language} in ('de','en','es')`),
    check('orders_gender_check', sql`${t.gender} is null or ${t.gender} in ('male','female','diverse')`),
    check('orders_package_check', sql`${t.package} is null or ${t.package} in ('basic','pro','premium')`),
    check('orders_money_check', sql`${t.totalCents} is null or ${t.totalCents} >= 0`),
    check('orders_production_mode_check', sql`${t.productionMode} in ('studio','generator','manual')`),
    check('orders_customer_kind_check', sql`${t.customerKind} in ('consumer','business')`),
    check('orders_vat_treatment_check', sql`${t.vatTreatment} in ('standard','reverse_charge')`),
    check('orders_seats_check', sql`${t.seats} is null or ${t.seats} between 1 and 500`),
    // A team member's order names its team's order (migration 0011 added it, hence PostgreSQL's own name).
    foreignKey({ name: 'orders_team_order_id_fkey', columns: [t.teamOrderId], foreignColumns: [t.id] }).onDelete('set null'),
    index('orders_team_order_idx').on(t.teamOrderId).where(sql`${t.teamOrderId} is not null`),
    // The back office's order list: placed orders newest first, all or by status (migration 0015; DESC puts
    // nulls first in PostgreSQL, and the columns are never null).
    index('orders_placed_idx').on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()).where(sql`${t.orderedAt} is not null`),
    index('orders_placed_status_idx').on(t.status, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()).where(sql`${t.orderedAt} is not null`),
  ],
);

export const teamLinks = pgTable(
  'team_links',
  {
    id: uuid('id').primaryKey(),
    teamOrderId: uuid('team_order_id').notNull(),
    createdAt: createdAt(),
    revokedAt: timestampTz('revoked_at'),
  },
  (t) => [
    foreignKey({ name: 'team_links_team_order_id_fkey', columns: [t.teamOrderId], foreignColumns: [orders.id] }).onDelete('cascade'),
    index('team_links_team_idx').on(t.teamOrderId),
  ],
);

export const teamInvites = pgTable(
  'team_invites',
  {
    id: uuid('id').primaryKey(),
    teamOrderId: uuid('team_order_id').notNull(),
    email: text('email').notNull(),
    createdAt: createdAt(),
    remindedAt: timestampTz('reminded_at'),
  },
  (t) => [
    foreignKey({ name: 'team_invites_team_order_id_fkey', columns: [t.teamOrderId], foreignColumns: [orders.id] }).onDelete('cascade'),
    uniqueIndex('team_invites_team_email_key').on(t.teamOrderId, sql`lower(${t.email})`),
  ],
);

export const revisionRequests = pgTable(
  'revision_requests',
  {
    id: uuid('id').primaryKey(),
    orderId: orderRef('order_id', 'cascade').notNull(),
    message: text('message').notNull(),
    status: text('status').notNull().default('open'),
    /** The published pictures the customer asked to have made again (the package's redo budget counts them). */
    imageIds: jsonb('image_ids').$type<string[]>().notNull().default([]),
    /** When the new pictures are due, in the studio's business hours (domain/business-hours.ts). */
    dueAt: timestampTz('due_at'),
    /** Staff's answer when they close it; the customer receives it by mail. */
    answer: text('answer'),
    answeredBy: uuid('answered_by'),
    createdAt: createdAt(),
    resolvedAt: timestampTz('resolved_at'),
  },
  (t) => [
    index('revision_requests_status_idx').on(t.status, t.createdAt),
    index('revision_requests_order_idx').on(t.orderId, t.createdAt),
    uniqueIndex('revision_requests_one_open').on(t.orderId).where(sql`${t.status} = 'open'`),
    check('revision_requests_status_check', sql`${t.status} in ('open','done')`),
    foreignKey({ name: 'revision_requests_answered_by_fkey', columns: [t.answeredBy], foreignColumns: [staffUsers.id] }).onDelete('set null'),
  ],
);
