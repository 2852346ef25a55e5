// Live server-sent event streams per user, counted in PostgreSQL so that every API process
// sees the same count (schema: event_streams).
import { and, eq, lte, sql } from 'drizzle-orm';
import type { Db } from '../client.js';
import { eventStreams } from '../schema.js';

export class EventStreamsRepository {
  constructor(private readonly db: Db) {}

  /**
   * Takes one of the user's `max` stream slots for `leaseSeconds`, or undefined when all are
   * held. Under a per-user lock, so two requests at once cannot both take the last slot; the
   * user's expired leases (a process that died) are dropped first.
   */
  take(userId: string, max: number, leaseSeconds: number): Promise<string | undefined> {
    return this.db.transaction(async (tx) => {
      await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${'basalt-event-streams:' + userId}, 0))`);
      await tx.delete(eventStreams).where(and(eq(eventStreams.userId, userId), lte(eventStreams.leaseUntil, sql`now()`)));
      const [held] = await tx.select({ count: sql<number>`count(*)::int` }).from(eventStreams).where(eq(eventStreams.userId, userId));
      if ((held?.count ?? 0) >= max) return undefined;
      const [row] = await tx
        .insert(eventStreams)
        .values({ userId, leaseUntil: sql`now() + make_interval(secs => ${leaseSeconds})` })
        .returning({ id: eventStreams.id });
      return row!.id;
    });
  }

  async renew(id: string, leaseSeconds: number): Promise<void> {
    await this.db.update(eventStreams).set({ leaseUntil: sql`now() + make_interval(secs => ${leaseSeconds})` }).where(eq(eventStreams.id, id));
  }

  async release(id: string): Promise<void> {
    await this.db.delete(eventStreams).where(eq(eventStreams.id, id));
  }
}
