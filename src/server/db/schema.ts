// The whole data model of docs/rules.md §2. Money is integer cents everywhere.
import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigserial,
  date,
  primaryKey,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { InvoiceLine, InvoiceParty, InvoiceSeller } from '../../domain/invoice.js';
import type {
  AuditDetails,
  JobPayload,
  JobProgress,
  PhotoRefusalDetails,
  PictureVariant,
  ProviderEventPayload,
  SandboxLineItem,
  SandboxMetadata,
  StoredPhotoQuality,
} from '../../domain/stored-json.js';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

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
    photoConsentAt: timestamp('photo_consent_at', { withTimezone: true }),
    photoConsentVersion: text('photo_consent_version'),
    waiverAcceptedAt: timestamp('waiver_accepted_at', { withTimezone: true }),
    waiverTextVersion: text('waiver_text_version'),
    orderedAt: timestamp('ordered_at', { withTimezone: true }),
    paymentProvider: text('payment_provider'),
    providerSessionId: text('provider_session_id'),
    providerPaymentId: text('provider_payment_id'),
    // The open checkout session, so a second click answers with the same payment page.
    providerSessionUrl: text('provider_session_url'),
    providerSessionTotalCents: integer('provider_session_total_cents'),
    providerSessionExpiresAt: timestamp('provider_session_expires_at', { withTimezone: true }),
    paymentFailedAt: timestamp('payment_failed_at', { withTimezone: true }),
    // Set while one request creates a checkout session, so a double click waits for it instead of making a second.
    checkoutClaimedAt: timestamp('checkout_claimed_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    photosDeleteAfter: timestamp('photos_delete_after', { withTimezone: true }),
    photosDeletedAt: timestamp('photos_deleted_at', { withTimezone: true }),
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
    teamOrderId: uuid('team_order_id').references((): AnyPgColumn => orders.id, { onDelete: 'set null' }),
  },
  (t) => [
    uniqueIndex('orders_order_number_key').on(t.orderNumber),
    uniqueIndex('orders_provider_session_key').on(t.providerSessionId),
    index('orders_created_at_idx').on(t.createdAt),
    index('orders_status_idx').on(t.status, t.createdAt),
    index('orders_email_idx').on(t.email),
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
    index('orders_team_order_idx').on(t.teamOrderId).where(sql`${t.teamOrderId} is not null`),
    // The back office's order list: placed orders newest first, all or by status (migration 0015).
    index('orders_placed_idx').on(t.createdAt.desc(), t.id.desc()).where(sql`${t.orderedAt} is not null`),
    index('orders_placed_status_idx').on(t.status, t.createdAt.desc(), t.id.desc()).where(sql`${t.orderedAt} is not null`),
  ],
);

export const teamLinks = pgTable(
  'team_links',
  {
    id: uuid('id').primaryKey(),
    teamOrderId: uuid('team_order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('team_links_team_idx').on(t.teamOrderId)],
);

export const teamInvites = pgTable(
  'team_invites',
  {
    id: uuid('id').primaryKey(),
    teamOrderId: uuid('team_order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    createdAt: createdAt(),
    remindedAt: timestamp('reminded_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('team_invites_team_email_key').on(t.teamOrderId, sql`lower(${t.email})`)],
);

export const orderUploads = pgTable(
  'order_uploads',
  {
    id: uuid('id').primaryKey(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    fileName: text('file_name').notNull(),
    fileSize: integer('file_size').notNull(),
    mimeType: text('mime_type').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    storageKey: text('storage_key').notNull(),
    uploadOrder: integer('upload_order').notNull(),
    quality: jsonb('quality').$type<StoredPhotoQuality>(),
    createdAt: createdAt(),
  },
  (t) => [index('order_uploads_order_idx').on(t.orderId, t.uploadOrder), uniqueIndex('order_uploads_storage_key').on(t.storageKey)],
);

/** A photo waiting for its check in a worker; see migrations/0017_photo_checks.sql. */
export const photoChecks = pgTable(
  'photo_checks',
  {
    id: uuid('id').primaryKey(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    fileName: text('file_name').notNull(),
    storageKey: text('storage_key').notNull(),
    status: text('status', { enum: ['checking', 'refused'] }).notNull(),
    code: text('code'),
    details: jsonb('details').$type<PhotoRefusalDetails>(),
    createdAt: createdAt(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [index('photo_checks_order_idx').on(t.orderId, t.status)],
);

export const generatedImages = pgTable(
  'generated_images',
  {
    id: uuid('id').primaryKey(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    fileName: text('file_name').notNull(),
    fileSize: integer('file_size').notNull(),
    mimeType: text('mime_type').notNull(),
    width: integer('width'),
    height: integer('height'),
    storageKey: text('storage_key').notNull(),
    generationType: text('generation_type').notNull(),
    // Idempotency for generated drafts: one job output slot makes one image.
    generationKey: text('generation_key'),
    uploadedBy: uuid('uploaded_by').references(() => staffUsers.id, { onDelete: 'set null' }),
    status: text('status').notNull().default('draft'),
    variant: jsonb('variant').$type<PictureVariant>(),
    publishedAt: timestamp('published_at', { withTimezone: true }),
    /** The customer marked this published picture as a favourite (null: not a favourite). */
    favouriteAt: timestamp('favourite_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('generated_images_order_idx').on(t.orderId, t.createdAt),
    uniqueIndex('generated_images_storage_key').on(t.storageKey),
    uniqueIndex('generated_images_generation_key').on(t.orderId, t.generationKey),
    check('generated_images_status_check', sql`${t.status} in ('draft','active','archived','deleted')`),
    check('generated_images_type_check', sql`${t.generationType} in ('admin_upload','studio','external')`),
  ],
);

export const imageDownloads = pgTable(
  'image_downloads',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    generatedImageId: uuid('generated_image_id')
      .notNull()
      .references(() => generatedImages.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    downloadedAt: timestamp('downloaded_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('image_downloads_image_idx').on(t.generatedImageId), check('image_downloads_kind_check', sql`${t.kind} in ('single','zip')`)],
);

export const orderHistory = pgTable(
  'order_history',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    event: text('event').notNull(),
    fromStatus: text('from_status'),
    toStatus: text('to_status'),
    actorType: text('actor_type').notNull(),
    actorId: text('actor_id'),
    note: text('note'),
    createdAt: createdAt(),
  },
  (t) => [
    index('order_history_order_idx').on(t.orderId, t.createdAt),
    check('order_history_actor_check', sql`${t.actorType} in ('system','staff','customer')`),
  ],
);

export const revisionRequests = pgTable(
  'revision_requests',
  {
    id: uuid('id').primaryKey(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    message: text('message').notNull(),
    status: text('status').notNull().default('open'),
    /** The published pictures the customer asked to have made again (the package's redo budget counts them). */
    imageIds: jsonb('image_ids').$type<string[]>().notNull().default([]),
    /** When the new pictures are due, in the studio's business hours (domain/business-hours.ts). */
    dueAt: timestamp('due_at', { withTimezone: true }),
    /** Staff's answer when they close it; the customer receives it by mail. */
    answer: text('answer'),
    answeredBy: uuid('answered_by').references(() => staffUsers.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
  },
  (t) => [
    index('revision_requests_status_idx').on(t.status, t.createdAt),
    index('revision_requests_order_idx').on(t.orderId, t.createdAt),
    uniqueIndex('revision_requests_one_open').on(t.orderId).where(sql`${t.status} = 'open'`),
    check('revision_requests_status_check', sql`${t.status} in ('open','done')`),
  ],
);

export const paymentEvents = pgTable(
  'payment_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    provider: text('provider').notNull(),
    eventId: text('event_id').notNull(),
    type: text('type').notNull(),
    orderId: uuid('order_id').references(() => orders.id, { onDelete: 'set null' }),
    payload: jsonb('payload').$type<ProviderEventPayload>().notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
    processedAt: timestamp('processed_at', { withTimezone: true }),
    outcome: text('outcome'),
  },
  (t) => [uniqueIndex('payment_events_provider_event_key').on(t.provider, t.eventId), index('payment_events_order_idx').on(t.orderId)],
);

export const staffUsers = pgTable(
  'staff_users',
  {
    id: uuid('id').primaryKey(),
    email: text('email').notNull(),
    name: text('name'),
    passwordHash: text('password_hash').notNull(),
    role: text('role').notNull().default('staff'),
    failedLogins: integer('failed_logins').notNull().default(0),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('staff_users_email_key').on(t.email), check('staff_users_role_check', sql`${t.role} in ('staff','admin')`)],
);

export const staffSessions = pgTable(
  'staff_sessions',
  {
    // SHA-256 of the cookie token: a leaked table does not give working sessions.
    tokenHash: text('token_hash').primaryKey(),
    staffUserId: uuid('staff_user_id')
      .notNull()
      .references(() => staffUsers.id, { onDelete: 'cascade' }),
    csrfToken: text('csrf_token').notNull(),
    ip: text('ip'),
    userAgent: text('user_agent'),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('staff_sessions_user_idx').on(t.staffUserId), index('staff_sessions_expires_idx').on(t.expiresAt)],
);

/** Counters for rate limits and login throttling, shared by every app process; unlogged (migration 0016). */
export const rateLimits = pgTable(
  'rate_limits',
  {
    key: text('key').primaryKey(),
    hits: integer('hits').notNull(),
    resetAt: timestamp('reset_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('rate_limits_reset_idx').on(t.resetAt)],
);

/** Keys written to storage before their row commits; see migrations/0007_storage_intents.sql. */
export const storageIntents = pgTable(
  'storage_intents',
  {
    key: text('key').primaryKey(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('storage_intents_created_idx').on(t.createdAt)],
);

export const contactMessages = pgTable(
  'contact_messages',
  {
    id: uuid('id').primaryKey(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    message: text('message').notNull(),
    language: text('language').notNull().default('de'),
    status: text('status').notNull().default('new'),
    createdAt: createdAt(),
  },
  (t) => [index('contact_messages_status_idx').on(t.status, t.createdAt), check('contact_messages_status_check', sql`${t.status} in ('new','read','answered')`)],
);

export const outgoingMail = pgTable(
  'outgoing_mail',
  {
    id: uuid('id').primaryKey(),
    template: text('template').notNull(),
    language: text('language').notNull(),
    toAddress: text('to_address').notNull(),
    fromAddress: text('from_address').notNull(),
    subject: text('subject').notNull(),
    html: text('html').notNull(),
    text: text('text').notNull(),
    orderId: uuid('order_id').references(() => orders.id, { onDelete: 'set null' }),
    // Prevents the same mail for the same occasion going out twice.
    dedupeKey: text('dedupe_key'),
    transport: text('transport').notNull(),
    status: text('status').notNull(),
    providerMessageId: text('provider_message_id'),
    error: text('error'),
    createdAt: createdAt(),
    /** When the last attempt started; a 'sending' row older than the mailer's stale limit is claimed again. */
    attemptedAt: timestamp('attempted_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('outgoing_mail_dedupe_key').on(t.dedupeKey),
    index('outgoing_mail_created_idx').on(t.createdAt),
    index('outgoing_mail_order_idx').on(t.orderId),
    check('outgoing_mail_status_check', sql`${t.status} in ('sending','sent','outbox','failed')`),
    check('outgoing_mail_transport_check', sql`${t.transport} in ('smtp','outbox')`),
  ],
);

export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    actorType: text('actor_type').notNull(),
    staffUserId: uuid('staff_user_id').references(() => staffUsers.id, { onDelete: 'set null' }),
    action: text('action').notNull(),
    orderId: uuid('order_id').references(() => orders.id, { onDelete: 'set null' }),
    details: jsonb('details').$type<AuditDetails>(),
    ip: text('ip'),
    createdAt: createdAt(),
  },
  (t) => [index('audit_log_order_idx').on(t.orderId, t.createdAt), index('audit_log_created_idx').on(t.createdAt)],
);

export const jobs = pgTable(
  'jobs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    queue: text('queue').notNull(),
    payload: jsonb('payload').$type<JobPayload>().notNull(),
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(5),
    runAt: timestamp('run_at', { withTimezone: true }).notNull().defaultNow(),
    lockedBy: text('locked_by'),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    progress: jsonb('progress').$type<JobProgress>(),
    lastError: text('last_error'),
    dedupeKey: text('dedupe_key'),
    orderId: uuid('order_id').references(() => orders.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    index('jobs_ready_idx').on(t.status, t.runAt),
    uniqueIndex('jobs_dedupe_key').on(t.queue, t.dedupeKey),
    index('jobs_order_idx').on(t.orderId),
    check('jobs_status_check', sql`${t.status} in ('pending','running','done','failed','dead')`),
  ],
);

/** Checkout sessions of the built-in sandbox payment provider (test mode only). */
export const sandboxCheckoutSessions = pgTable(
  'sandbox_checkout_sessions',
  {
    id: text('id').primaryKey(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    amountTotal: integer('amount_total').notNull(),
    currency: text('currency').notNull(),
    lineItems: jsonb('line_items').$type<SandboxLineItem[]>().notNull(),
    customerEmail: text('customer_email'),
    locale: text('locale').notNull(),
    metadata: jsonb('metadata').$type<SandboxMetadata>().notNull(),
    clientReferenceId: text('client_reference_id'),
    status: text('status').notNull().default('open'),
    paymentStatus: text('payment_status').notNull().default('unpaid'),
    successUrl: text('success_url').notNull(),
    cancelUrl: text('cancel_url').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('sandbox_checkout_sessions_order_idx').on(t.orderId),
    check('sandbox_checkout_sessions_status_check', sql`${t.status} in ('open','complete','expired')`),
    check('sandbox_checkout_sessions_payment_check', sql`${t.paymentStatus} in ('unpaid','paid')`),
  ],
);

/**
 * First-party counting (docs/rules.md §4: no analytics before consent): page views and the spec's
 * events as daily counters. No cookie, no address, no browser data, no order id: only what happened how often.
 */
export const siteMetrics = pgTable(
  'site_metrics',
  {
    day: date('day', { mode: 'string' }).notNull(),
    kind: text('kind').notNull(),
    name: text('name').notNull(),
    detail: text('detail').notNull().default(''),
    count: integer('count').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.day, t.kind, t.name, t.detail] }), check('site_metrics_kind_check', sql`${t.kind} in ('page_view','event')`)],
);

/** The last invoice number of each year: incremented in the payment's transaction, so numbers have no gaps. */
export const invoiceCounters = pgTable('invoice_counters', {
  year: integer('year').primaryKey(),
  lastNumber: integer('last_number').notNull().default(0),
});

/**
 * Invoices and cancellation invoices (Stornorechnungen): every field of § 14 (4) UStG as issued, the seller
 * included, so a later change of the site settings never changes an issued invoice. Kept 8 years after the
 * order's photos are deleted (retain_until), apart from the photos.
 */
export const invoices = pgTable(
  'invoices',
  {
    id: uuid('id').primaryKey(),
    number: text('number').notNull(),
    year: integer('year').notNull(),
    sequence: integer('sequence').notNull(),
    kind: text('kind').notNull(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'restrict' }),
    correctsInvoiceId: uuid('corrects_invoice_id'),
    refundId: uuid('refund_id'),
    language: text('language').notNull(),
    issuedAt: timestamp('issued_at', { withTimezone: true }).notNull(),
    serviceDate: date('service_date', { mode: 'string' }).notNull(),
    seller: jsonb('seller').$type<InvoiceSeller>().notNull(),
    customer: jsonb('customer').$type<InvoiceParty>().notNull(),
    lines: jsonb('lines').$type<InvoiceLine[]>().notNull(),
    netCents: integer('net_cents').notNull(),
    vatCents: integer('vat_cents').notNull(),
    grossCents: integer('gross_cents').notNull(),
    vatRatePercent: integer('vat_rate_percent').notNull(),
    storageKey: text('storage_key'),
    retainUntil: timestamp('retain_until', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('invoices_number_key').on(t.number),
    uniqueIndex('invoices_year_sequence_key').on(t.year, t.sequence),
    uniqueIndex('invoices_refund_key').on(t.refundId),
    index('invoices_order_idx').on(t.orderId),
    check('invoices_kind_check', sql`${t.kind} in ('invoice','cancellation')`),
  ],
);

/** Refunds staff ask the payment provider for; only the provider's event makes one succeeded. */
export const refunds = pgTable(
  'refunds',
  {
    id: uuid('id').primaryKey(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'restrict' }),
    amountCents: integer('amount_cents').notNull(),
    /** A team order's unused seats this refund gives back (taken from the team while it stands). */
    seats: integer('seats'),
    reason: text('reason'),
    status: text('status').notNull().default('requested'),
    providerRefundId: text('provider_refund_id'),
    requestedBy: uuid('requested_by').references(() => staffUsers.id, { onDelete: 'set null' }),
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull(),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    failureReason: text('failure_reason'),
  },
  (t) => [
    uniqueIndex('refunds_provider_refund_key').on(t.providerRefundId),
    index('refunds_order_idx').on(t.orderId),
    check('refunds_status_check', sql`${t.status} in ('requested','succeeded','failed')`),
    check('refunds_amount_check', sql`${t.amountCents} > 0`),
  ],
);

/** Declarations of withdrawal made with the "Vertrag widerrufen" function (§ 356a BGB), with or without a matching order. */
export const withdrawals = pgTable(
  'withdrawals',
  {
    id: uuid('id').primaryKey(),
    orderId: uuid('order_id').references(() => orders.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    orderReference: text('order_reference').notNull(),
    email: text('email').notNull(),
    language: text('language').notNull(),
    /** What the receipt told the customer: the right exists, it expired (waiver, fully performed), or no order matched. */
    outcome: text('outcome').notNull(),
    status: text('status').notNull().default('new'),
    createdAt: createdAt(),
  },
  (t) => [
    index('withdrawals_status_idx').on(t.status, t.createdAt),
    check('withdrawals_outcome_check', sql`${t.outcome} in ('withdrawn','expired','late','unpaid','unmatched')`),
    check('withdrawals_status_check', sql`${t.status} in ('new','handled')`),
  ],
);
