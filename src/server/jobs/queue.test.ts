import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { DatabaseHandle } from '../db/client.js';
import { jobs } from '../db/schema.js';
import { testDatabases } from '../test/databases.js';
import { backoffMs, createJobQueue } from './queue.js';
import { createJobRunner, handlerOf, JobTimeLimitError } from './runner.js';

const quiet = { info() {}, warn() {}, error() {}, debug() {}, fatal() {}, trace() {}, child() { return quiet; }, level: 'silent', silent() {} } as never;

describe.each(testDatabases())('job queue on $name', (testDb) => {
  let db: DatabaseHandle;
  let clock = new Date('2026-11-23T10:00:00Z');
  const now = () => clock;
  beforeAll(async () => {
    db = await testDb.open();
  });
  afterAll(() => db.close());

  test('a dedupe key makes one job; due jobs are claimed oldest first, each by one worker', async () => {
    const queue = createJobQueue(db.db, now);
    const first = await queue.enqueue({ queue: 'q.a', payload: { n: 1 }, dedupeKey: 'once' });
    expect(first).toBeTypeOf('number');
    expect(await queue.enqueue({ queue: 'q.a', payload: { n: 2 }, dedupeKey: 'once' })).toBeNull();
    await queue.enqueue({ queue: 'q.a', payload: { n: 3 }, runAt: new Date(clock.getTime() + 60_000) });
    const claimed = await queue.claim('w1', ['q.a'], 30_000);
    expect(claimed).toMatchObject({ id: first, status: 'running', lockedBy: 'w1', attempts: 1, payload: { n: 1 } });
    // The other job is not due yet, and the running one belongs to w1.
    expect(await queue.claim('w2', ['q.a'], 30_000)).toBeNull();
    await queue.complete(first!, 'w1');
    expect((await queue.find(first!))!.status).toBe('done');
  });

  test('a failed attempt waits with backoff; the last one is dead until staff retry it', async () => {
    const queue = createJobQueue(db.db, now);
    const id = (await queue.enqueue({ queue: 'q.b', payload: {}, maxAttempts: 2 }))!;
    await queue.claim('w1', ['q.b'], 30_000);
    expect(await queue.fail(id, 'w1', 'Error: boom')).toBe('retry');
    expect(await queue.find(id)).toMatchObject({ status: 'pending', lastError: 'Error: boom', runAt: new Date(clock.getTime() + backoffMs(1)) });
    expect(await queue.claim('w1', ['q.b'], 30_000)).toBeNull();
    clock = new Date(clock.getTime() + backoffMs(1));
    expect((await queue.claim('w1', ['q.b'], 30_000))!.attempts).toBe(2);
    expect(await queue.fail(id, 'w1', 'Error: boom again')).toBe('dead');
    expect((await queue.dead()).map((job) => job.id)).toContain(id);
    clock = new Date(clock.getTime() + 3_600_000);
    expect(await queue.claim('w1', ['q.b'], 30_000)).toBeNull();
    expect(await queue.retry(id)).toBe(true);
    expect(await queue.claim('w1', ['q.b'], 30_000)).toMatchObject({ id, attempts: 1 });
    await queue.complete(id, 'w1');
  });

  test('a worker whose lease ran out and whose job another took cannot fail it; backoff grows to an hour', async () => {
    const queue = createJobQueue(db.db, now);
    const id = (await queue.enqueue({ queue: 'q.l', payload: {}, maxAttempts: 9 }))!;
    await queue.claim('slow', ['q.l'], 1_000);
    clock = new Date(clock.getTime() + 2_000);
    expect((await queue.claim('quick', ['q.l'], 30_000))!.id).toBe(id);
    // The slow worker's failure finds the job no longer its own: nothing changes.
    expect(await queue.fail(id, 'slow', 'Error: too late')).toBe('retry');
    expect(await queue.find(id)).toMatchObject({ status: 'running', lockedBy: 'quick', lastError: null });
    expect(await queue.fail(id, 'quick', 'Error: boom')).toBe('retry');
    expect((await queue.find(id))!.runAt).toEqual(new Date(clock.getTime() + backoffMs(2)));
    for (let attempt = 3; attempt <= 6; attempt++) {
      clock = new Date((await queue.find(id))!.runAt.getTime());
      await queue.claim('quick', ['q.l'], 30_000);
      await queue.fail(id, 'quick', 'Error: boom');
      expect((await queue.find(id))!.runAt).toEqual(new Date(clock.getTime() + backoffMs(attempt)));
    }
    expect(backoffMs(6)).toBe(3_600_000);
  });

  test('sent mails\' jobs go after their keeping time; other queues\' jobs, and mails not yet sent, stay', async () => {
    const queue = createJobQueue(db.db, now);
    const done = async (name: string, key: string) => {
      const id = (await queue.enqueue({ queue: name, payload: {}, dedupeKey: key }))!;
      await queue.claim('w', [name], 30_000);
      await queue.complete(id, 'w');
      return id;
    };
    const old = await done('mail', 'purge-old');
    const studio = await done('q.keep', 'purge-studio');
    clock = new Date(clock.getTime() + 10 * 24 * 3600 * 1000);
    const recent = await done('mail', 'purge-recent');
    const waiting = (await queue.enqueue({ queue: 'mail', payload: {}, dedupeKey: 'purge-waiting', runAt: new Date(0) }))!;
    expect(await queue.purgeFinished('mail', new Date(clock.getTime() - 5 * 24 * 3600 * 1000))).toBe(1);
    expect(await queue.find(old)).toBeNull();
    for (const id of [studio, recent, waiting]) expect(await queue.find(id)).not.toBeNull();
    // Its dedupe key is free again: a mail owed again gets a job, whose sender finds the mail sent (outgoing_mail).
    expect(await queue.enqueue({ queue: 'mail', payload: {}, dedupeKey: 'purge-old' })).toBeTypeOf('number');
  });

  test('a failure that says trying again cannot help (final) is dead at its first attempt; staff can still retry it', async () => {
    const queue = createJobQueue(db.db, now);
    const id = (await queue.enqueue({ queue: 'q.f', payload: {}, maxAttempts: 3 }))!;
    await queue.claim('w1', ['q.f'], 30_000);
    expect(await queue.fail(id, 'w1', 'Error: a setting is wrong', { final: true })).toBe('dead');
    expect(await queue.find(id)).toMatchObject({ status: 'dead', attempts: 1, lastError: 'Error: a setting is wrong' });
    expect(await queue.retry(id)).toBe(true);
    expect(await queue.claim('w1', ['q.f'], 30_000)).toMatchObject({ id, attempts: 1 });
    await queue.complete(id, 'w1');
  });

  test('a worker that dies loses its job when the lease runs out: another takes it over, the last attempt goes dead', async () => {
    const queue = createJobQueue(db.db, now);
    const id = (await queue.enqueue({ queue: 'q.c', payload: {}, maxAttempts: 2 }))!;
    await queue.claim('dying', ['q.c'], 10_000);
    expect(await queue.claim('other', ['q.c'], 10_000)).toBeNull();
    clock = new Date(clock.getTime() + 11_000);
    expect(await queue.claim('other', ['q.c'], 10_000)).toMatchObject({ id, lockedBy: 'other', attempts: 2 });
    // The first worker, back from the dead, cannot finish or extend what is no longer its job.
    expect(await queue.heartbeat(id, 'dying', 10_000)).toBe(false);
    await queue.complete(id, 'dying');
    expect((await queue.find(id))!.status).toBe('running');
    clock = new Date(clock.getTime() + 11_000);
    expect(await queue.buryAbandoned()).toBe(1);
    expect((await queue.find(id))!.status).toBe('dead');
  });

  test('two workers claiming at the same time never take the same job', async () => {
    const queue = createJobQueue(db.db, now);
    const ids: number[] = [];
    for (let i = 0; i < 30; i++) ids.push((await queue.enqueue({ queue: 'q.d', payload: { i } }))!);
    const take = async (worker: string) => {
      const mine: number[] = [];
      for (;;) {
        const job = await queue.claim(worker, ['q.d'], 60_000);
        if (!job) return mine;
        mine.push(job.id);
      }
    };
    const [a, b] = await Promise.all([take('worker-a'), take('worker-b')]);
    expect([...a!, ...b!].sort((x, y) => x - y)).toEqual(ids);
    expect(a!.filter((id) => b!.includes(id))).toEqual([]);
  });

  test('the runner records success and failure, and reports progress', async () => {
    const queue = createJobQueue(db.db, now);
    const good = (await queue.enqueue({ queue: 'q.e', payload: { ok: true } }))!;
    const bad = (await queue.enqueue({ queue: 'q.e', payload: { ok: false }, maxAttempts: 1 }))!;
    const runner = createJobRunner({
      queue,
      log: quiet,
      handlers: {
        'q.e': async (job, context) => {
          await context.progress({ done: 1, total: 1 });
          if (!(job.payload as { ok: boolean }).ok) throw new Error('not ok');
        },
      },
    });
    expect(await runner.drain()).toBe(2);
    expect(await queue.find(good)).toMatchObject({ status: 'done', progress: { done: 1, total: 1 } });
    expect(await queue.find(bad)).toMatchObject({ status: 'dead' });
    expect((await queue.find(bad))!.lastError).toContain('not ok');
    expect((await db.db.select().from(jobs)).every((job) => job.lockedBy === null || job.status === 'running')).toBe(true);
  });

  test('a job past its queue\'s time limit: the attempt fails naming the limit, its signal aborts, the runner goes on; what the abandoned work writes later changes nothing, even once this worker holds the job again', async () => {
    const queue = createJobQueue(db.db, now);
    const slow = (await queue.enqueue({ queue: 'q.t', payload: { slow: true }, maxAttempts: 2 }))!;
    const quick = (await queue.enqueue({ queue: 'q.t', payload: { slow: false } }))!;
    let aborted: unknown = null;
    let letStaleWrite!: () => void;
    const staleMayWrite = new Promise<void>((resolve) => (letStaleWrite = resolve));
    let staleDone!: Promise<void>;
    let attempt = 0;
    let progressAfterStaleWrite: unknown = 'not read';
    const runner = createJobRunner({
      queue,
      log: quiet,
      handlers: handlerOf(
        'q.t',
        async (job, context) => {
          if (!(job.payload as { slow: boolean }).slow) return;
          attempt++;
          if (attempt === 1) {
            staleDone = (async () => {
              await new Promise<void>((resolve) => context.signal.addEventListener('abort', () => resolve()));
              aborted = context.signal.reason;
              await staleMayWrite;
              await context.progress({ done: 99 });
            })();
            await staleDone;
            return;
          }
          // The second attempt, by the same runner: the first one's work now tries to write.
          letStaleWrite();
          await staleDone;
          progressAfterStaleWrite = (await queue.find(job.id))!.progress;
          await context.progress({ done: 2 });
        },
        { timeLimitMs: 200 },
      ),
    });
    expect(await runner.drain()).toBe(2);
    expect(aborted).toBeInstanceOf(JobTimeLimitError);
    const failed = (await queue.find(slow))!;
    expect(failed).toMatchObject({ status: 'pending', attempts: 1, lockedBy: null, progress: null });
    expect(failed.lastError).toContain("the job ran longer than its queue's time limit (q.t: 0.2 s)");
    expect(await queue.find(quick)).toMatchObject({ status: 'done' });
    clock = new Date(clock.getTime() + backoffMs(1));
    expect(await runner.drain()).toBe(1);
    expect(progressAfterStaleWrite).toBeNull();
    expect(await queue.find(slow)).toMatchObject({ status: 'done', attempts: 2, progress: { done: 2 } });
  });

  test('a note merged from outside the handler (a webhook) stays through the handler\'s progress while it is about the prediction under way, and only the job\'s holder writes progress', async () => {
    const queue = createJobQueue(db.db, now);
    const id = (await queue.enqueue({ queue: 'q.n', payload: {} }))!;
    await queue.claim('holder', ['q.n'], 60_000);
    await queue.progressKeeping(id, 'holder', { predictionId: 'p1', done: 0 }, { key: 'webhook', id: 'p1' });
    await queue.mergeProgress(id, { webhook: { id: 'p1', status: 'succeeded' } } as never);
    await queue.progressKeeping(id, 'holder', { predictionId: 'p1', done: 1 }, { key: 'webhook', id: 'p1' });
    expect((await queue.find(id))!.progress).toEqual({ predictionId: 'p1', done: 1, webhook: { id: 'p1', status: 'succeeded' } });
    // The next prediction: the old note goes, as does any the handler passes itself.
    await queue.progressKeeping(id, 'holder', { predictionId: 'p2', done: 1, webhook: { id: 'stale' } } as never, { key: 'webhook', id: 'p2' });
    expect((await queue.find(id))!.progress).toEqual({ predictionId: 'p2', done: 1 });
    await queue.progressKeeping(id, 'someone else', { predictionId: 'p3', done: 9 }, { key: 'webhook', id: 'p3' });
    expect((await queue.find(id))!.progress).toEqual({ predictionId: 'p2', done: 1 });
  });

  test('a job cut short by a database outage goes back without using an attempt and runs again soon', async () => {
    const queue = createJobQueue(db.db, now);
    const id = (await queue.enqueue({ queue: 'q.f', payload: {}, maxAttempts: 1 }))!;
    let calls = 0;
    const runner = createJobRunner({
      queue,
      log: quiet,
      handlers: {
        'q.f': async () => {
          calls++;
          // What node-postgres throws when pg_terminate_backend ends the connection mid-job.
          if (calls === 1) throw Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
        },
      },
    });
    expect(await runner.drain()).toBe(1);
    // Its only attempt was not used up: pending again, due in two seconds, with the reason.
    expect(await queue.find(id)).toMatchObject({ status: 'pending', attempts: 0, lockedBy: null, lastError: expect.stringContaining('database') });
    expect((await queue.find(id))!.runAt.getTime()).toBe(clock.getTime() + 2_000);
    clock = new Date(clock.getTime() + 2_000);
    expect(await runner.drain()).toBe(1);
    expect(await queue.find(id)).toMatchObject({ status: 'done', attempts: 1 });
    expect(calls).toBe(2);
  });

  test('a refused connection of another service (object store, mail server) counts as the job failing while the database answers', async () => {
    const queue = createJobQueue(db.db, now);
    const id = (await queue.enqueue({ queue: 'q.g', payload: {}, maxAttempts: 2 }))!;
    const runner = createJobRunner({
      queue,
      log: quiet,
      handlers: {
        'q.g': async () => {
          throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9000'), { code: 'ECONNREFUSED' });
        },
      },
    });
    expect(await runner.drain()).toBe(1);
    // An attempt used, with backoff: not released again and again as if the database were away.
    expect(await queue.find(id)).toMatchObject({ status: 'pending', attempts: 1, lastError: expect.stringContaining('ECONNREFUSED') });
  });
});
