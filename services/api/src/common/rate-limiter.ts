// In-process token buckets. One API replica enforces its own share; good enough to shed floods.
// The table of buckets is bounded, and making room does not hand a limited key a fresh bucket:
// the fullest buckets go first (a refilled one holds nothing a fresh one would not), so filling
// the table with new keys evicts those keys, not the one an attacker has emptied.
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; updatedAt: number }>();

  constructor(
    private readonly ratePerSecond: number,
    private readonly burst: number,
    private readonly maxKeys = 100_000,
  ) {}

  /** Takes one token for `key`; returns 0 when allowed, else the seconds to wait. */
  take(key: string, now = Date.now()): number {
    if (this.ratePerSecond <= 0) return 0;
    const bucket = this.buckets.get(key) ?? { tokens: this.burst, updatedAt: now };
    bucket.tokens = Math.min(this.burst, bucket.tokens + ((now - bucket.updatedAt) / 1000) * this.ratePerSecond);
    bucket.updatedAt = now;
    // Re-inserted, so the map's order is least recently used first.
    this.buckets.delete(key);
    this.buckets.set(key, bucket);
    if (this.buckets.size > this.maxKeys) this.makeRoom(now);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / this.ratePerSecond));
  }

  get size(): number {
    return this.buckets.size;
  }

  /**
   * Drops the buckets that hold the most tokens first (refilled ones, then those used once,
   * then those at least half full: the least limited keys), oldest first, and only then the
   * least recently used.
   */
  private makeRoom(now: number): void {
    const target = Math.floor(this.maxKeys * 0.9);
    for (const floor of [this.burst, this.burst - 1, this.burst / 2, -Infinity]) {
      for (const [key, bucket] of this.buckets) {
        if (this.buckets.size <= target) return;
        if (bucket.tokens + ((now - bucket.updatedAt) / 1000) * this.ratePerSecond >= floor) this.buckets.delete(key);
      }
    }
  }
}
