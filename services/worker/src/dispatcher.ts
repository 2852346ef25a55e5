// Takes jobs from one queue and runs them in the worker's job slots (shared by every queue),
// each completed or failed on its own. One poller per queue (instead of one pg-boss work
// loop per slot) keeps the idle load on PostgreSQL to a query or two per second on a small
// machine; a job is fetched only when a slot is free for it.
import type PgBoss from 'pg-boss';
import type { JobSlots } from './job-slots.js';

export type JobHandler = (job: PgBoss.Job<Record<string, unknown>>) => Promise<void>;

export class QueueDispatcher {
  private running = false;
  private unsubscribe: (() => void) | undefined;
  private wake: (() => void) | undefined;
  private loop: Promise<void> | undefined;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly boss: PgBoss,
    private readonly queue: string,
    private readonly slots: JobSlots,
    private readonly pollMs: number,
    private readonly handler: JobHandler,
    private readonly log: (message: string) => void,
  ) {}

  start(): void {
    this.running = true;
    this.unsubscribe = this.slots.onFree(() => this.wake?.());
    this.loop = this.run();
  }

  /** Stops taking jobs and waits (up to `timeoutMs`) for the running ones. */
  async stop(timeoutMs: number): Promise<void> {
    this.running = false;
    this.unsubscribe?.();
    this.wake?.();
    await this.loop;
    const timeout = new Promise((resolve) => setTimeout(resolve, timeoutMs).unref());
    await Promise.race([Promise.all(this.inFlight), timeout]);
  }

  private async run(): Promise<void> {
    while (this.running) {
      const free = this.slots.tryTake(this.slots.free);
      let fetched = 0;
      if (free > 0) {
        try {
          const jobs = await this.boss.fetch<Record<string, unknown>>(this.queue, { batchSize: free });
          fetched = jobs.length;
          for (const job of jobs) this.begin(job);
        } catch (error) {
          this.log(`fetching from ${this.queue} failed: ${(error as Error).message}`);
        } finally {
          // Slots held for jobs the queue did not have go back at once.
          if (fetched < free) this.slots.give(free - fetched, false);
        }
      }
      // A full batch may mean more are waiting: ask again at once while there is room.
      if (fetched > 0 && fetched === free) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.pollMs);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = undefined;
    }
  }

  /** Runs one fetched job in the slot taken for it. */
  private begin(job: PgBoss.Job<Record<string, unknown>>): void {
    const work = (async () => {
      try {
        await this.handler(job);
        await this.boss.complete(this.queue, job.id);
      } catch (error) {
        this.log(`job ${job.id} on ${this.queue} failed: ${(error as Error).message}`);
        await this.boss.fail(this.queue, job.id, { message: (error as Error).message }).catch(() => {});
      } finally {
        this.slots.give();
      }
    })();
    this.inFlight.add(work);
    void work.finally(() => this.inFlight.delete(work));
  }
}
