// A small in-process cache with a time to live, for the lookups every request repeats (who is
// this key, is this user a member of that project). Entries this process invalidates go at once;
// other replicas see a change within the TTL.
export class TtlCache<V> {
  private readonly entries = new Map<string, { value: V; expiresAt: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  async get(key: string, load: () => Promise<V>): Promise<V> {
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && hit.expiresAt > now) return hit.value;
    const value = await load();
    if (this.ttlMs > 0) {
      if (this.entries.size >= this.maxEntries) this.entries.clear();
      this.entries.set(key, { value, expiresAt: now + this.ttlMs });
    }
    return value;
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  /** Drops every entry whose key starts with `prefix`. */
  deletePrefix(prefix: string): void {
    for (const key of this.entries.keys()) if (key.startsWith(prefix)) this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}
