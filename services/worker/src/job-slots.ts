// How many jobs this worker runs at once, across all its queues and the reconciler: one
// bound, so the database pool (sized from it in main.ts) always has a connection for each.
export class JobSlots {
  private used = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly listeners = new Set<() => void>();

  constructor(readonly size: number) {}

  get free(): number {
    return this.size - this.used;
  }

  /** Takes up to `wanted` slots now, without waiting; returns how many it took. */
  tryTake(wanted: number): number {
    const taken = Math.max(0, Math.min(wanted, this.free));
    this.used += taken;
    return taken;
  }

  /** Waits for one slot. */
  async take(): Promise<void> {
    if (this.tryTake(1) === 1) return;
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  /** Gives slots back; `wake` tells the dispatchers (not done for slots a fetch did not use). */
  give(count = 1, wake = true): void {
    for (let i = 0; i < count; i++) {
      const next = this.waiting.shift();
      // A waiter takes the slot over directly; otherwise it is free again.
      if (next) next();
      else this.used--;
    }
    if (wake) for (const listener of this.listeners) listener();
  }

  /** Runs `work` in a slot. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    await this.take();
    try {
      return await work();
    } finally {
      this.give();
    }
  }

  /** Called whenever a slot is given back (a dispatcher wakes to fetch again). */
  onFree(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
