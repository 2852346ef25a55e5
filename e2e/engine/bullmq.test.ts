// BullMQ (the Node job queue) with basalt-server as its Redis: its Lua scripts, streams (the
// events stream written with XADD ... MAXLEN ~ and read by QueueEvents with XREAD BLOCK),
// sorted sets for delayed jobs, and blocking pops. A worker processes jobs, failed jobs are
// retried, a delayed job runs after its delay, and QueueEvents sees every completion. Jobs added
// before a crash (kill -9 under `fsync always`) are processed after the restart.
// The engine runs in managed mode, as the platform deploys every instance (issue 43): nothing
// here needs the platform's commands.
import fs from 'node:fs';
import { Queue, QueueEvents, Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startEngine, type Engine } from './engine-process.js';

let engine: Engine | undefined;
/** The data dir of the first engine, restarted on after the crash (removed here). */
let keptDir: string | undefined;
const closers: Array<() => Promise<unknown>> = [];

function connection(port: number) {
  // BullMQ needs maxRetriesPerRequest null on the connections that block (workers, events).
  return { host: '127.0.0.1', port, maxRetriesPerRequest: null };
}

/** Resolves once `events` has seen `count` completed jobs; their return values by job id. */
function completions(events: QueueEvents, count: number): Promise<Map<string, string>> {
  const seen = new Map<string, string>();
  return new Promise((resolve) => {
    events.on('completed', ({ jobId, returnvalue }) => {
      seen.set(jobId, String(returnvalue));
      if (seen.size === count) resolve(seen);
    });
  });
}

afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

afterAll(async () => {
  await engine?.stop();
  if (keptDir) fs.rmSync(keptDir, { recursive: true, force: true });
});

describe('BullMQ with basalt-server', () => {
  it('processes jobs, retries a failing one, runs a delayed one, and QueueEvents sees them complete', async () => {
    engine = await startEngine(['--fsync', 'always'], undefined, { managed: true });
    const queue = new Queue('work', { connection: connection(engine.port) });
    // From the stream's first entry: with the default (`$`), events written before QueueEvents'
    // first XREAD reached the server (it is sent after waitUntilReady resolves) were never read,
    // and the test waited for completions the worker had already reported.
    const events = new QueueEvents('work', { connection: connection(engine.port), lastEventId: '0-0' });
    closers.push(() => queue.close(), () => events.close());
    await events.waitUntilReady();

    const attempts = new Map<string, number>();
    const worker = new Worker(
      'work',
      async (job: Job) => {
        const n = (attempts.get(job.id!) ?? 0) + 1;
        attempts.set(job.id!, n);
        if (job.name === 'flaky' && n === 1) throw new Error('first try fails');
        return `${job.name}:${job.data.x * 2}`;
      },
      { connection: connection(engine.port), concurrency: 4 },
    );
    closers.push(() => worker.close());

    const done = completions(events, 42);
    const added = await queue.addBulk(Array.from({ length: 40 }, (_, i) => ({ name: 'double', data: { x: i } })));
    const flaky = await queue.add('flaky', { x: 100 }, { attempts: 3, backoff: { type: 'fixed', delay: 100 } });
    const delayedAt = Date.now();
    const delayed = await queue.add('later', { x: 7 }, { delay: 500 });

    const results = await done;
    for (const [i, job] of added.entries()) expect(results.get(job.id!)).toBe(`double:${i * 2}`);
    expect(results.get(flaky.id!)).toBe('flaky:200');
    expect(attempts.get(flaky.id!)).toBe(2);
    expect(results.get(delayed.id!)).toBe('later:14');
    expect((await queue.getJob(delayed.id!))!.finishedOn! - delayedAt).toBeGreaterThanOrEqual(500);
    expect(await queue.getJobCounts('completed', 'failed', 'waiting', 'delayed', 'active')).toMatchObject({ completed: 42, failed: 0, waiting: 0, delayed: 0, active: 0 });
    // The events stream is a real stream, trimmed by BullMQ's XADD ... MAXLEN ~.
    const client = new Redis(engine.port, '127.0.0.1');
    closers.push(() => client.quit());
    expect(await client.type('bull:work:events')).toBe('stream');
    expect(await client.xlen('bull:work:events')).toBeGreaterThan(0);
  }, 60_000);

  it('processes after a kill -9 the jobs added before it', async () => {
    const dir = engine!.dir;
    keptDir = dir;
    const queue = new Queue('crash', { connection: connection(engine!.port) });
    const jobs = await queue.addBulk(Array.from({ length: 25 }, (_, i) => ({ name: 'n', data: { x: i } })));
    await queue.disconnect();
    await engine!.kill9();

    engine = await startEngine(['--fsync', 'always'], dir, { managed: true });
    const events = new QueueEvents('crash', { connection: connection(engine.port), lastEventId: '0-0' });
    closers.push(() => events.close());
    await events.waitUntilReady();
    const done = completions(events, 25);
    const worker = new Worker('crash', async (job: Job) => job.data.x + 1000, { connection: connection(engine.port) });
    closers.push(() => worker.close());
    const results = await done;
    for (const [i, job] of jobs.entries()) expect(results.get(job.id!)).toBe(String(i + 1000));
  }, 60_000);
});
