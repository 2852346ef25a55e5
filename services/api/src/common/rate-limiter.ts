// In-process token buckets. One API replica enforces its own share; good enough to shed floods.
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; updatedAt: number }>();

  constructor(
    private readonly ratePerSecond: number,
    private readonly burst: number,
  ) {}

  /** Takes one token for `key`; returns 0 when allowed, else the seconds to wait. */
  take(key: string, now = Date.now()): number {
    if (this.ratePerSecond <= 0) return 0;
    const bucket = this.buckets.get(key) ?? { tokens: this.burst, updatedAt: now };
    bucket.tokens = Math.min(this.burst, bucket.tokens + ((now - bucket.updatedAt) / 1000) * this.ratePerSecond);
    bucket.updatedAt = now;
    this.buckets.set(key, bucket);
    if (this.buckets.size > 100_000) this.buckets.clear();
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / this.ratePerSecond));
  }
}
