// Durable jobs in the database (the jobs table): named queues, retries with backoff, a dead-letter state
// staff see and retry, and safe with any number of worker processes: a job is claimed with
// FOR UPDATE SKIP LOCKED under a lease that its worker renews; a worker that dies loses the lease and the
// job is claimed again.
import { and, desc, eq, inArray, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { JobPayload, JobProgress } from '../../domain/stored-json.js';
import { queryRows, type Executor } from '../db/client.js';
import { jobs } from '../db/schema.js';

export type { JobPayload, JobProgress } from '../../domain/stored-json.js';

export type JobRow = typeof jobs.$inferSelect;

declare const queueTypes: unique symbol;

/**
 * A queue's name with the types of its jobs' payload and progress, declared once by the module that owns the
 * queue (`export const MAIL: Queue<MailPayload> = 'mail'`). At run time it is the name; to the compiler it ties the
 * name to what `enqueue` must be given for it and what its handler reads (`Job`, runner.ts `handlerOf`). A plain
 * string is a queue of any payload.
 */
export type Queue<Payload extends JobPayload = JobPayload, Progress extends JobProgress = JobProgress> = string & {
  readonly [queueTypes]?: { payload: Payload; progress: Progress };
};

/** A job of a queue as its handler reads it: the row, with the payload and progress that queue declares. */
export type Job<Payload extends JobPayload = JobPayload, Progress extends JobProgress = JobProgress> = Omit<JobRow, 'payload' | 'progress'> & {
  payload: Payload;
  progress: Progress | null;
};

/**
 * The row as a job of `queue` (its payload and progress as that queue declares them), or null when the row is
 * another queue's. Only `enqueue` writes a payload, checked against its queue's type, and only the queue's
 * handler and the code that owns the queue write its progress: the name vouches for the shape.
 */
export function jobOf<Payload extends JobPayload, Progress extends JobProgress>(queue: Queue<Payload, Progress>, row: JobRow): Job<Payload, Progress> | null {
  return row.queue === queue ? (row as Job<Payload, Progress>) : null;
}

export interface EnqueueOptions<Payload extends JobPayload = JobPayload> {
  /** A queue declared with its payload's type (`Queue`) checks `payload` against it. */
  queue: Queue<Payload, JobProgress>;
  payload: NoInfer<Payload>;
  orderId?: string | null;
  /** One job per (queue, key): enqueueing it again does nothing. */
  dedupeKey?: string | null;
  maxAttempts?: number;
  runAt?: Date;
}

/** A value in a statement: given, or a placeholder that a prepared statement fills in each time it runs. */
type Param<T> = T | Placeholder;

/** A job's row as `enqueueRow` writes it: each value given, or a placeholder (the payload as JSON text). */
export interface JobRowValues {
  queue: Param<string>;
  payloadJson: Param<string>;
  orderId: Param<string | null>;
  dedupeKey: Param<string | null>;
  maxAttempts: Param<number>;
  runAt: Param<string>;
  createdAt: Param<string>;
}

/**
 * The row `enqueue` writes, as a statement that inserts it once for each row of `source` (a common table
 * expression of the caller's statement): something recorded and its job queued in one round trip, or neither.
 */
export function enqueueStatement<Payload extends JobPayload>(source: SQL, options: EnqueueOptions<Payload>, now: Date): SQL {
  return enqueueRow(source, {
    queue: options.queue,
    payloadJson: JSON.stringify(options.payload),
    orderId: options.orderId ?? null,
    dedupeKey: options.dedupeKey ?? null,
    maxAttempts: options.maxAttempts ?? 5,
    runAt: (options.runAt ?? now).toISOString(),
    createdAt: now.toISOString(),
  });
}

/** enqueueStatement's statement from the row's values, which may be placeholders (a prepared statement's). */
export function enqueueRow(source: SQL, row: JobRowValues): SQL {
  return sql`insert into ${jobs} (queue, payload, order_id, dedupe_key, max_attempts, run_at, created_at, updated_at)
    select ${row.queue}::text, ${row.payloadJson}::jsonb, ${row.orderId}::uuid, ${row.dedupeKey}::text,
      ${row.maxAttempts}::integer, ${row.runAt}::timestamptz, ${row.createdAt}::timestamptz, ${row.createdAt}::timestamptz
    from ${source}
    on conflict do nothing`;
}

/** Waiting time before attempt n+1: 15 s, 1 min, 4 min, … at most an hour. */
export function backoffMs(attempts: number): number {
  return Math.min(3_600_000, 15_000 * 4 ** Math.max(0, attempts - 1));
}

interface RawJob {
  id: string | number;
  queue: string;
  payload: JobPayload | string;
  status: string;
  attempts: number;
  max_attempts: number;
  run_at: Date | string;
  locked_by: string | null;
  locked_until: Date | string | null;
  progress: JobProgress | string | null;
  last_error: string | null;
  dedupe_key: string | null;
  order_id: string | null;
  created_at: Date | string;
  updated_at: Date | string;
  finished_at: Date | string | null;
}

const date = (value: Date | string | null) => (value === null ? null : new Date(value));

function fromRaw(row: RawJob): JobRow {
  return {
    id: Number(row.id),
    queue: row.queue,
    payload: typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload,
    status: row.status,
    attempts: Number(row.attempts),
    maxAttempts: Number(row.max_attempts),
    runAt: date(row.run_at)!,
    lockedBy: row.locked_by,
    lockedUntil: date(row.locked_until),
    progress: typeof row.progress === 'string' ? JSON.parse(row.progress) : row.progress,
    lastError: row.last_error,
    dedupeKey: row.dedupe_key,
    orderId: row.order_id,
    createdAt: date(row.created_at)!,
    updatedAt: date(row.updated_at)!,
    finishedAt: date(row.finished_at),
  };
}

export function createJobQueue(db: Executor, now: () => Date) {
  return {
    /** Returns the job's id, or null when a job with the same dedupe key exists. */
    async enqueue<Payload extends JobPayload>(options: EnqueueOptions<Payload>): Promise<number | null> {
      const [row] = await queryRows<{ id: string | number }>(db, sql`${enqueueStatement(sql`(select 1) as one`, options, now())} returning id`);
      return row ? Number(row.id) : null;
    },

    /** Takes the next due job of these queues (or one whose worker's lease ran out) for this worker. */
    async claim(workerId: string, queues: readonly string[], leaseMs: number): Promise<JobRow | null> {
      const at = now();
      const until = new Date(at.getTime() + leaseMs);
      const [row] = await queryRows<RawJob & Record<string, unknown>>(
        db,
        sql`update ${jobs} set status = 'running', locked_by = ${workerId}, locked_until = ${until.toISOString()},
              attempts = ${jobs.attempts} + 1, updated_at = ${at.toISOString()}
            where ${jobs.id} = (
              select id from ${jobs}
              where queue in (${sql.join(queues.map((q) => sql`${q}`), sql`, `)})
                and attempts < max_attempts
                and ((status = 'pending' and run_at <= ${at.toISOString()}) or (status = 'running' and locked_until < ${at.toISOString()}))
              order by run_at, id
              for update skip locked
              limit 1)
            returning *`,
      );
      return row ? fromRaw(row) : null;
    },

    /** Jobs whose worker died on their last allowed attempt: dead, for staff to look at. */
    async buryAbandoned(): Promise<number> {
      const at = now().toISOString();
      const rows = await db
        .update(jobs)
        .set({ status: 'dead', lockedBy: null, lockedUntil: null, lastError: sql`coalesce(${jobs.lastError}, 'the worker stopped during the last attempt')`, updatedAt: now() })
        .where(and(eq(jobs.status, 'running'), sql`${jobs.lockedUntil} < ${at}`, sql`${jobs.attempts} >= ${jobs.maxAttempts}`))
        .returning({ id: jobs.id });
      return rows.length;
    },

    /** Extends the lease; false when the job is no longer this worker's (it took too long and was taken over). */
    async heartbeat(id: number, workerId: string, leaseMs: number): Promise<boolean> {
      const rows = await db
        .update(jobs)
        .set({ lockedUntil: new Date(now().getTime() + leaseMs), updatedAt: now() })
        .where(and(eq(jobs.id, id), eq(jobs.lockedBy, workerId), eq(jobs.status, 'running')))
        .returning({ id: jobs.id });
      return rows.length === 1;
    },

    async progress(id: number, workerId: string, progress: JobProgress): Promise<void> {
      await db.update(jobs).set({ progress, updatedAt: now() }).where(and(eq(jobs.id, id), eq(jobs.lockedBy, workerId)));
    },

    /**
     * The handler's progress, keeping the entry `keep.key` that `mergeProgress` wrote meanwhile while that entry's
     * `id` is still `keep.id` (a webhook's note about the prediction under way): one statement, so neither write
     * undoes the other. Only while `workerId` holds the job (null: no claim to check, a handler run by hand).
     */
    async progressKeeping(id: number, workerId: string | null, progress: JobProgress, keep: { key: string; id: string }): Promise<void> {
      const { [keep.key]: _replaced, ...rest } = progress as Record<string, unknown>;
      await db
        .update(jobs)
        .set({
          progress: sql`${JSON.stringify(rest)}::jsonb || case when ${jobs.progress}->${keep.key}->>'id' = ${keep.id} then jsonb_build_object(${keep.key}::text, ${jobs.progress}->${keep.key}) else '{}'::jsonb end`,
          updatedAt: now(),
        })
        .where(and(eq(jobs.id, id), workerId ? eq(jobs.lockedBy, workerId) : sql`true`));
    },

    /**
     * Merges `patch` into a job's progress from outside its handler (a provider's webhook, answered by whichever
     * process it reaches): one statement, so it cannot undo what the handler writes meanwhile.
     */
    async mergeProgress(id: number, patch: JobProgress): Promise<void> {
      await db.update(jobs).set({ progress: sql`coalesce(${jobs.progress}, '{}'::jsonb) || ${JSON.stringify(patch)}::jsonb` }).where(eq(jobs.id, id));
    },

    async complete(id: number, workerId: string): Promise<void> {
      await db
        .update(jobs)
        .set({ status: 'done', lockedBy: null, lockedUntil: null, lastError: null, finishedAt: now(), updatedAt: now() })
        .where(and(eq(jobs.id, id), eq(jobs.lockedBy, workerId)));
    },

    /**
     * A failed attempt: tried again later, or dead when it was the last or `final` (trying again cannot help).
     * One statement, so the decision and the write see the same row: a worker whose lease ran out and whose job
     * another took meanwhile changes nothing (the row is no longer locked by it).
     */
    async fail(id: number, workerId: string, error: string, options: { final?: boolean } = {}): Promise<'retry' | 'dead'> {
      const at = now();
      const dead = sql`(${options.final === true} or ${jobs.attempts} >= ${jobs.maxAttempts})`;
      // backoffMs in SQL: 15 s × 4^(attempts − 1), at most an hour.
      const retryAt = sql`${at.toISOString()}::timestamptz + least(3600000, 15000 * power(4, greatest(0, ${jobs.attempts} - 1))) * interval '1 millisecond'`;
      const [row] = await queryRows<{ status: string }>(
        db,
        sql`update ${jobs} set
              status = case when ${dead} then 'dead' else 'pending' end,
              locked_by = null, locked_until = null,
              last_error = ${error.slice(0, 2000)},
              run_at = case when ${dead} then ${jobs.runAt} else ${retryAt} end,
              finished_at = case when ${dead} then ${at.toISOString()}::timestamptz else null end,
              updated_at = ${at.toISOString()}
            where ${jobs.id} = ${id} and ${jobs.lockedBy} = ${workerId}
            returning status`,
      );
      return row?.status === 'dead' ? 'dead' : 'retry';
    },

    /**
     * Finished jobs of a queue whose outcome is kept elsewhere (the mail queue: outgoing_mail keeps each mail and
     * its dedupe key, so a mail owed again finds itself sent), done before `before`: deleted. Returns how many.
     */
    async purgeFinished(queue: string, before: Date): Promise<number> {
      const rows = await db
        .delete(jobs)
        .where(and(eq(jobs.queue, queue), eq(jobs.status, 'done'), sql`${jobs.finishedAt} < ${before.toISOString()}`))
        .returning({ id: jobs.id });
      return rows.length;
    },

    /**
     * Gives a job back without counting its attempt: it was cut short by something outside it (the database
     * went away mid-job), not by a fault of its own. It runs again after `delayMs`.
     */
    /** Whether the database answers at all (a job's error that looks like an outage may be another service's). */
    async ping(): Promise<boolean> {
      try {
        await db.execute(sql`select 1`);
        return true;
      } catch {
        return false;
      }
    },

    async release(id: number, workerId: string, delayMs: number): Promise<void> {
      await db
        .update(jobs)
        .set({
          status: 'pending',
          lockedBy: null,
          lockedUntil: null,
          attempts: sql`greatest(${jobs.attempts} - 1, 0)`,
          runAt: new Date(now().getTime() + delayMs),
          lastError: 'interrupted: the database was unavailable',
          updatedAt: now(),
        })
        .where(and(eq(jobs.id, id), eq(jobs.lockedBy, workerId), eq(jobs.status, 'running')));
    },

    /** Staff send a dead job round again, with fresh attempts (and, where its queue wants it, a new progress). */
    async retry(id: number, options: { progress?: (old: JobProgress | null) => JobProgress } = {}): Promise<boolean> {
      const [job] = options.progress ? await db.select({ progress: jobs.progress }).from(jobs).where(eq(jobs.id, id)) : [];
      const rows = await db
        .update(jobs)
        .set({ status: 'pending', attempts: 0, runAt: now(), finishedAt: null, lockedBy: null, lockedUntil: null, updatedAt: now(), ...(job && options.progress ? { progress: options.progress(job.progress) } : {}) })
        .where(and(eq(jobs.id, id), inArray(jobs.status, ['dead', 'failed'])))
        .returning({ id: jobs.id });
      return rows.length === 1;
    },

    async find(id: number): Promise<JobRow | null> {
      const [row] = await db.select().from(jobs).where(eq(jobs.id, id));
      return row ?? null;
    },

    /** Whether a job of the order waits or runs. */
    async activeFor(orderId: string): Promise<boolean> {
      const [row] = await db.select({ id: jobs.id }).from(jobs).where(and(eq(jobs.orderId, orderId), inArray(jobs.status, ['pending', 'running']))).limit(1);
      return Boolean(row);
    },

    async forOrder(orderId: string, limit = 20): Promise<JobRow[]> {
      return db.select().from(jobs).where(eq(jobs.orderId, orderId)).orderBy(desc(jobs.id)).limit(limit);
    },

    async dead(limit = 50): Promise<JobRow[]> {
      return db.select().from(jobs).where(eq(jobs.status, 'dead')).orderBy(desc(jobs.updatedAt)).limit(limit);
    },
  };
}

export type JobQueue = ReturnType<typeof createJobQueue>;
