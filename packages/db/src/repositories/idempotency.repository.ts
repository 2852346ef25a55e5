// Idempotency-Key records: claimed before a POST runs, completed with its response afterwards.
import { and, eq, lt, sql } from 'drizzle-orm';
import type { Db } from '../client.js';
import { idempotencyKeys } from '../schema.js';

export type IdempotencyRow = typeof idempotencyKeys.$inferSelect;

export class IdempotencyRepository {
  constructor(private readonly db: Db) {}

  /** Claims the key; returns undefined when claimed now, or the existing record. */
  async claim(principal: string, key: string, requestHash: string): Promise<IdempotencyRow | undefined> {
    await this.db.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, sql`now() - interval '24 hours'`));
    const inserted = await this.db.insert(idempotencyKeys).values({ principal, key, requestHash }).onConflictDoNothing().returning();
    if (inserted.length) return undefined;
    const [row] = await this.db.select().from(idempotencyKeys).where(and(eq(idempotencyKeys.principal, principal), eq(idempotencyKeys.key, key)));
    return row;
  }

  async complete(principal: string, key: string, statusCode: number, responseBody: unknown): Promise<void> {
    await this.db
      .update(idempotencyKeys)
      .set({ statusCode, responseBody })
      .where(and(eq(idempotencyKeys.principal, principal), eq(idempotencyKeys.key, key)));
  }

  /** Forgets a claim whose request failed, so the client may retry with the same key. */
  async release(principal: string, key: string): Promise<void> {
    await this.db.delete(idempotencyKeys).where(and(eq(idempotencyKeys.principal, principal), eq(idempotencyKeys.key, key)));
  }
}
