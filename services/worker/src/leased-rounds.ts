// The loop of a monitor (health, failover): one round every interval, never two at once, and
// only in the one worker that holds the monitor's lease (taken once, kept until this worker
// ends), so however many workers run, each instance is watched once.
import type { JobContext } from './context.js';

export class LeasedRounds {
  private timer: NodeJS.Timeout | undefined;
  private round: Promise<void> | undefined;
  private watching = false;

  constructor(
    private readonly ctx: JobContext,
    /** How the log names the monitor, and what it says once it watches. */
    private readonly name: string,
    private readonly watchingWhat: string,
    private readonly leaseKey: string,
    private readonly intervalMs: number,
    private readonly work: () => Promise<void>,
  ) {}

  start(): void {
    const tick = () => {
      this.round ??= this.once()
        .catch((error) => this.ctx.log(`${this.name}: ${(error as Error).message}`))
        .finally(() => (this.round = undefined));
    };
    this.timer = setInterval(tick, this.intervalMs);
    tick();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.round;
  }

  /** One round, if this worker holds (or now takes) the monitor's lease. */
  async once(): Promise<void> {
    if (!this.watching) {
      if (!(await this.ctx.leases.tryLease(this.leaseKey))) return;
      this.watching = true;
      this.ctx.log(`${this.name}: watching ${this.watchingWhat}`);
    }
    await this.work();
  }
}
