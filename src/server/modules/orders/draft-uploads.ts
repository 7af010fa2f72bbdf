// The draft's photos: an upload is checked (format, size, quality gate, same person) before it becomes one of
// the order's photos, and a refused or failed upload leaves no row and no file; a photo can be deleted until
// checkout. A process with enough uploads under way stores a new photo as sent and lets a worker check it
// (the photo-check queue): the customer gets an answer at once and the wizard asks for the verdict.
import { randomBytes, randomUUID } from 'node:crypto';
import { Transform, pipeline, type Readable } from 'node:stream';
import { UPLOAD_LIMITS } from '../../../domain/catalog.js';
import type { PhotoCheckView, PhotoState, UploadAnswer } from '../../../domain/order-views.js';
import { AppError, conflict, notFound, unprocessable } from '../../http/errors.js';
import type { Queue } from '../../jobs/queue.js';
import { handlerOf, type JobHandler } from '../../jobs/runner.js';
import { noteIntent, settleIntent } from '../../storage/intents.js';
import { showsAnotherPerson } from '../../../studio/identity.js';
import { isRefusing } from '../../../studio/quality-gate.js';
import { inspectCustomerPhoto, processCustomerPhoto, type UploadRejection } from '../../images/image-processing.js';
import { createOrderRepository, type PhotoCheckRow, type UploadRow } from './order-repository.js';
import { isEditable, thumbnailKey, type OrderContext } from './order-context.js';

/** A photo check's job: the check (photo_checks) it runs. */
export interface PhotoCheckPayload {
  checkId: string;
}

/** Photos stored as sent, waiting for a worker's check (they report no progress). */
export const PHOTO_CHECK_QUEUE: Queue<PhotoCheckPayload> = 'photo-check';

/** A check that failed this often (storage away, a crash) refuses the photo instead of spinning forever. */
const CHECK_ATTEMPTS = 3;

/**
 * How much of a photo's start its header checks read when it goes to a worker (a JPEG's, PNG's or WebP's
 * header lies well inside it, even behind a large EXIF block); a HEIC, whose index may point anywhere, is read
 * whole from storage.
 */
const HEADER_BYTES = 256 * 1024;

/**
 * A photo as the route receives it. The service reads the body: into memory for a check at once, or straight
 * into storage for a worker's check, so a busy web process decodes no photo (on local disk it holds none in memory;
 * the S3 driver reads a photo into memory to send it with its length, s3-storage.ts). `received` vets what
 * arrived (the address's volume, the size limit) before anything else happens; it throws to refuse.
 */
export interface IncomingPhoto {
  stream: Readable;
  fileName: string | undefined;
  received(bytes: number): Promise<void>;
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * The name shown to the customer and staff: no control characters, no path separators, and no format
 * characters (Cf: bidirectional overrides that show "gpj.exe" as "exe.jpg", zero-width and invisible marks).
 */
function safeFileName(name: string | undefined): string {
  const cleaned = (name ?? 'foto').normalize('NFC').replace(/[\p{Cc}\p{Cf}/\\]/gu, '').trim();
  return (cleaned || 'foto').slice(0, 200);
}

/** A photo the image checks refuse, as the customer's error (errors.<code>). */
function rejection(code: UploadRejection): AppError {
  const status = code === 'fileTooLarge' ? 413 : code === 'tooManyPixels' || code === 'resolutionTooLow' ? 422 : 415;
  return new AppError(status, code, code, code === 'resolutionTooLow' ? { minShortSidePx: UPLOAD_LIMITS.minShortSidePx } : undefined);
}

/** A photo waiting for its worker, as the wizard shows it. */
export function checkView(row: Pick<PhotoCheckRow, 'id' | 'fileName'>): PhotoCheckView {
  return { state: 'checking', id: row.id, fileName: row.fileName };
}

export function createDraftUploads(ctx: OrderContext) {
  const { deps, orders, requireOrder, uploadView, releaseCheckout } = ctx;
  const { db, storage } = deps;
  const inlineLimit = deps.inlineUploads;
  let inline = 0;

  /** The order takes another photo now (checked again under the row lock when it is recorded). */
  async function admit(orderId: string) {
    const existing = await requireOrder(orderId);
    if (!isEditable(existing)) throw conflict('orderLocked');
    await releaseCheckout(existing);
    // Cheap early answer; the count is enforced again under the row lock.
    if ((await orders.photoCount(orderId)) >= UPLOAD_LIMITS.maxPhotos) {
      throw conflict('tooManyPhotos', { max: UPLOAD_LIMITS.maxPhotos });
    }
  }

  /**
   * Decodes, re-encodes and checks a photo and records it as the order's photo `id`: here for a photo just
   * received, or in a worker for a photo that waited (`check`: its row, removed in the same transaction).
   * A refusal throws its AppError and leaves nothing stored.
   */
  async function checkAndStore(orderId: string, id: string, buffer: Buffer, fileName: string, check?: PhotoCheckRow): Promise<UploadRow> {
    const processed = await processCustomerPhoto(buffer);
    if (!processed.ok) throw rejection(processed.code);
    const image = processed.image;
    // Before anything is stored: a refused photo (no face, several, or blurred, dark, burnt out or tilted beyond
    // use) leaves nothing behind. Its code is the customer's message (errors.<code>, with advice).
    const quality = await deps.checkPhoto(image.buffer);
    if (quality?.verdict === 'refused') throw unprocessable((quality.issues.find((issue) => isRefusing(issue.code)) ?? quality.issues[0]!).code);
    // Every photo of an order shows the same person: a face unlike all the accepted ones is refused.
    if (showsAnotherPerson(quality, (await orders.uploads(orderId)).map((upload) => upload.quality))) throw unprocessable('differentPerson');
    const key = `uploads/${orderId}/${randomBytes(16).toString('hex')}.${image.extension}`;
    const files = [key, thumbnailKey(key)];
    // Noted first: should this process die before the row commits, the deletion job finds the files.
    await noteIntent(db, files, deps.now());
    try {
      await storage.put(key, image.buffer, { contentType: image.mimeType });
      await storage.put(thumbnailKey(key), image.thumbnail, { contentType: 'image/jpeg' });
      return await db.transaction(async (tx) => {
        const repo = createOrderRepository(tx);
        const order = await repo.lock(orderId);
        if (!order) throw notFound('orderNotFound');
        // The photo that waited: removed by the customer meanwhile, nothing is kept.
        if (check && !(await repo.takePhotoCheck(check.id))) throw notFound('photoNotFound');
        if (!isEditable(order) || order.providerSessionId) throw conflict('orderLocked');
        if ((await repo.photoCount(orderId)) >= UPLOAD_LIMITS.maxPhotos) {
          throw conflict('tooManyPhotos', { max: UPLOAD_LIMITS.maxPhotos });
        }
        // Again under the lock: of two photos sent at once, the second is compared with the first.
        if (showsAnotherPerson(quality, (await repo.uploads(orderId)).map((upload) => upload.quality))) throw unprocessable('differentPerson');
        // New photos after an earlier deletion (a retry days later) are kept under the usual rules again.
        if (order.photosDeletedAt) await repo.update(orderId, { photosDeletedAt: null });
        await settleIntent(tx, files);
        // The file as it was sent goes once this commits (noted, should the process die before).
        if (check) await noteIntent(tx, [check.storageKey], deps.now());
        return repo.insertUpload({
          id,
          orderId,
          fileName,
          fileSize: image.bytes,
          mimeType: image.mimeType,
          width: image.width,
          height: image.height,
          storageKey: key,
          uploadOrder: await repo.nextUploadOrder(orderId),
          quality: quality ?? { verdict: 'unchecked' },
          createdAt: deps.now(),
        });
      });
    } catch (error) {
      // Nothing may stay behind for a refused or failed upload (and if this cleanup fails, the note stays
      // and the deletion job removes the files).
      await removeFiles(files);
      throw error;
    }
  }

  /** Deletes files and then their notes; a failed deletion leaves its note for the deletion job. */
  async function removeFiles(files: string[]) {
    const cleaned = await Promise.allSettled(files.map((file) => storage.delete(file)));
    if (cleaned.every((result) => result.status === 'fulfilled')) await settleIntent(db, files).catch(() => {});
  }

  /**
   * A busy process: the photo goes into storage as it arrives, and only its start stays in memory for the
   * header checks (format, size, pixels, resolution: refused at once); then it waits for a worker.
   */
  async function defer(orderId: string, file: IncomingPhoto): Promise<PhotoCheckView> {
    const id = randomUUID();
    const key = `uploads/${orderId}/incoming/${randomBytes(16).toString('hex')}`;
    await noteIntent(db, [key], deps.now());
    try {
      const head: Buffer[] = [];
      let headBytes = 0;
      let bytes = 0;
      const counted = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          bytes += chunk.length;
          if (headBytes < HEADER_BYTES) {
            head.push(chunk);
            headBytes += chunk.length;
          }
          done(null, chunk);
        },
      });
      // A body that breaks off fails the copy the storage reads (its error reaches the caller from there).
      pipeline(file.stream, counted, () => {});
      await storage.put(key, counted, { contentType: 'application/octet-stream' });
      await file.received(bytes);
      // No early look at the order here (admit): the body is stored already, the header checks cost a few
      // milliseconds, and the statement below checks the order under its lock anyway (two round trips fewer
      // for every upload in a rush).
      const start = Buffer.concat(head);
      let inspected = await inspectCustomerPhoto(start);
      // The start was not enough (a HEIC, or a header further in than usual): the whole file decides.
      if (!inspected.ok && bytes > start.length) inspected = await inspectCustomerPhoto(await storage.getBuffer(key));
      if (!inspected.ok) throw rejection(inspected.code);
      const fileName = safeFileName(file.fileName);
      // The order's checks, the photo's check, its job and the settled note in one statement: one round trip
      // instead of a transaction of four, for every upload in a rush.
      const job = { queue: PHOTO_CHECK_QUEUE, payload: { checkId: id }, orderId, dedupeKey: id, maxAttempts: CHECK_ATTEMPTS };
      const row = { id, orderId, fileName, storageKey: key, createdAt: deps.now() };
      let recorded = await orders.recordPhotoCheck(row, UPLOAD_LIMITS.maxPhotos, job);
      if (recorded === 'checkoutOpen') {
        // A placed order's open payment page is closed first (outside the statement: it asks the provider).
        await releaseCheckout(await requireOrder(orderId));
        recorded = await orders.recordPhotoCheck(row, UPLOAD_LIMITS.maxPhotos, job);
      }
      if (recorded === 'orderNotFound') throw notFound('orderNotFound');
      if (recorded === 'tooManyPhotos') throw conflict('tooManyPhotos', { max: UPLOAD_LIMITS.maxPhotos });
      if (recorded !== 'recorded') throw conflict('orderLocked');
      return checkView({ id, fileName });
    } catch (error) {
      // A refused photo, a body that broke off or a failed write: nothing stays behind.
      file.stream.resume();
      await removeFiles([key]);
      throw error;
    }
  }

  /** Records a waiting photo's refusal and deletes the file as sent. */
  async function refuseCheck(check: PhotoCheckRow, error: AppError) {
    await db.transaction(async (tx) => {
      const refused = await createOrderRepository(tx).refusePhotoCheck(check.id, error.code, error.details ?? null, deps.now());
      if (refused) await noteIntent(tx, [check.storageKey], deps.now());
    });
    await removeFiles([check.storageKey]);
  }

  /** The photo-check job: the same checks as an upload answered at once, then the file as sent goes. */
  const runCheck: JobHandler<PhotoCheckPayload> = async (job) => {
    const check = await orders.findPhotoCheck(job.payload.checkId);
    if (!check || check.status !== 'checking') return;
    try {
      const buffer = await storage.getBuffer(check.storageKey);
      await checkAndStore(check.orderId, check.id, buffer, check.fileName, check);
      await removeFiles([check.storageKey]);
    } catch (error) {
      // Removed by the customer meanwhile: nothing to do (its file went with it, perhaps before it was read).
      if (error instanceof AppError && error.statusCode === 404 && error.code === 'photoNotFound') return;
      if (!(await orders.findPhotoCheck(check.id))) return;
      // A refusal is the customer's answer; anything else is tried again, and after the last attempt the
      // customer is asked to send the photo again rather than wait for ever.
      if (error instanceof AppError && error.statusCode < 500) return refuseCheck(check, error);
      if (job.attempts >= job.maxAttempts) {
        deps.log.error({ err: error, checkId: check.id }, 'photo check failed for the last time; the photo is refused');
        return refuseCheck(check, new AppError(500, 'uploadFailed'));
      }
      throw error;
    }
  };

  return {
    // A check takes seconds (its models' own limit is 30 s, photo-quality.ts); five minutes leave room for a
    // queue of photos waiting for the models' thread, and a hung check still frees the runner.
    handlers: handlerOf(PHOTO_CHECK_QUEUE, runCheck, { timeLimitMs: 5 * 60 * 1000 }),

    async addUpload(orderId: string, file: IncomingPhoto): Promise<UploadAnswer> {
      if (inline >= inlineLimit) return defer(orderId, file);
      inline++;
      try {
        const buffer = await readAll(file.stream);
        await file.received(buffer.length);
        await admit(orderId);
        return await uploadView(await checkAndStore(orderId, randomUUID(), buffer, safeFileName(file.fileName)));
      } finally {
        inline--;
      }
    },

    /** One photo of the draft: accepted, still being checked, or refused (with the reason). */
    async photoState(orderId: string, id: string): Promise<PhotoState> {
      // The check first: the worker removes it and adds the upload in one transaction, so a check gone means
      // the upload is there when it is read next. (Upload first, then check, missed both when the worker
      // committed in between: bench/load's customers got "not found" for accepted photos.)
      const check = await orders.findPhotoCheck(id, orderId);
      if (check?.status === 'checking') return checkView(check);
      if (check) return { state: 'refused', id: check.id, fileName: check.fileName, code: check.code ?? 'uploadFailed', ...(check.details ? { details: check.details } : {}) };
      const upload = await orders.findUpload(orderId, id);
      if (!upload) throw notFound('photoNotFound');
      return { state: 'accepted', upload: await uploadView(upload) };
    },

    async removeUpload(orderId: string, uploadId: string) {
      const order = await requireOrder(orderId);
      if (!isEditable(order)) throw conflict('orderLocked');
      await releaseCheckout(order);
      const upload = await orders.findUpload(orderId, uploadId);
      if (upload) {
        await orders.deleteUpload(upload.id);
        await Promise.all([storage.delete(upload.storageKey), storage.delete(thumbnailKey(upload.storageKey))]);
        return;
      }
      // A photo still waiting for its check, or a refused one the customer dismisses.
      const check = await orders.findPhotoCheck(uploadId, orderId);
      if (!check) throw notFound('photoNotFound');
      await orders.deletePhotoCheck(check.id);
      if (check.status === 'checking') await storage.delete(check.storageKey);
    },
  };
}
