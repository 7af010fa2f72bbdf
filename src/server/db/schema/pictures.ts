// The pictures of an order: the customer's photos and their checks, the pictures made from them, and their
// downloads.
import { sql } from 'drizzle-orm';
import { bigserial, check, foreignKey, index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { PhotoRefusalDetails, PictureVariant, StoredPhotoQuality } from '../../../domain/stored-json.js';
import { createdAt, timestampTz, updatedAt } from './columns.js';
import { orderRef, orders } from './orders.js';
import { staffRef } from './staff.js';

export const orderUploads = pgTable(
  'order_uploads',
  {
    id: uuid('id').primaryKey(),
    orderId: orderRef('order_id', 'cascade').notNull(),
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
    orderId: uuid('order_id').notNull(),
    fileName: text('file_name').notNull(),
    storageKey: text('storage_key').notNull(),
    status: text('status', { enum: ['checking', 'refused'] }).notNull(),
    code: text('code'),
    details: jsonb('details').$type<PhotoRefusalDetails>(),
    createdAt: createdAt(),
    finishedAt: timestampTz('finished_at'),
  },
  (t) => [
    // Written inline in migration 0017, so PostgreSQL named them.
    foreignKey({ name: 'photo_checks_order_id_fkey', columns: [t.orderId], foreignColumns: [orders.id] }).onDelete('cascade'),
    check('photo_checks_status_check', sql`${t.status} in ('checking','refused')`),
    index('photo_checks_order_idx').on(t.orderId, t.status),
  ],
);

export const generatedImages = pgTable(
  'generated_images',
  {
    id: uuid('id').primaryKey(),
    orderId: orderRef('order_id', 'cascade').notNull(),
    fileName: text('file_name').notNull(),
    fileSize: integer('file_size').notNull(),
    mimeType: text('mime_type').notNull(),
    width: integer('width'),
    height: integer('height'),
    storageKey: text('storage_key').notNull(),
    generationType: text('generation_type').notNull(),
    // Idempotency for generated drafts: one job output slot makes one image.
    generationKey: text('generation_key'),
    uploadedBy: staffRef('uploaded_by', 'set null'),
    status: text('status').notNull().default('draft'),
    variant: jsonb('variant').$type<PictureVariant>(),
    publishedAt: timestampTz('published_at'),
    /** The customer marked this published picture as a favourite (null: not a favourite). */
    favouriteAt: timestampTz('favourite_at'),
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
    orderId: orderRef('order_id', 'cascade').notNull(),
    generatedImageId: uuid('generated_image_id')
      .notNull()
      .references(() => generatedImages.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    downloadedAt: timestampTz('downloaded_at').notNull().defaultNow(),
  },
  (t) => [index('image_downloads_image_idx').on(t.generatedImageId), check('image_downloads_kind_check', sql`${t.kind} in ('single','zip')`)],
);
