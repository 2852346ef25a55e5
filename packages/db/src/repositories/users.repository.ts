// Control-plane users, their browser sessions and API keys. Secrets arrive here already hashed.
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '../client.js';
import { apiKeys, sessions, users } from '../schema.js';

export type UserRow = typeof users.$inferSelect;
export type ApiKeyRow = typeof apiKeys.$inferSelect;

export class UsersRepository {
  constructor(private readonly db: Db) {}

  async findByEmail(email: string): Promise<UserRow | undefined> {
    const [row] = await this.db.select().from(users).where(eq(users.email, email.toLowerCase()));
    return row;
  }

  async findById(id: string): Promise<UserRow | undefined> {
    const [row] = await this.db.select().from(users).where(eq(users.id, id));
    return row;
  }

  async create(values: { email: string; name: string; passwordHash: string; isAdmin: boolean }): Promise<UserRow> {
    const [row] = await this.db.insert(users).values({ ...values, email: values.email.toLowerCase() }).returning();
    return row!;
  }

  async createSession(userId: string, tokenHash: string, expiresAt: Date): Promise<void> {
    await this.db.insert(sessions).values({ userId, tokenHash, expiresAt });
  }

  async findUserBySession(tokenHash: string): Promise<UserRow | undefined> {
    const [row] = await this.db
      .select({ user: users })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(and(eq(sessions.tokenHash, tokenHash), gt(sessions.expiresAt, sql`now()`)));
    return row?.user;
  }

  async deleteSession(tokenHash: string): Promise<void> {
    await this.db.delete(sessions).where(eq(sessions.tokenHash, tokenHash));
  }

  async createApiKey(values: { userId: string; name: string; prefix: string; keyHash: string; expiresAt: Date | null; parentId: string | null }): Promise<ApiKeyRow> {
    const [row] = await this.db.insert(apiKeys).values(values).returning();
    return row!;
  }

  async listApiKeys(userId: string): Promise<ApiKeyRow[]> {
    return this.db.select().from(apiKeys).where(eq(apiKeys.userId, userId)).orderBy(apiKeys.createdAt);
  }

  /** The live key with this hash and its owner; stamps last_used_at at most once a minute. */
  async findUserByApiKey(keyHash: string): Promise<{ user: UserRow; apiKey: ApiKeyRow } | undefined> {
    const [row] = await this.db
      .select({ user: users, apiKey: apiKeys })
      .from(apiKeys)
      .innerJoin(users, eq(users.id, apiKeys.userId))
      .where(
        and(
          eq(apiKeys.keyHash, keyHash),
          isNull(apiKeys.revokedAt),
          sql`(${apiKeys.expiresAt} IS NULL OR ${apiKeys.expiresAt} > now())`,
        ),
      );
    if (row && (!row.apiKey.lastUsedAt || Date.now() - row.apiKey.lastUsedAt.getTime() > 60_000)) {
      await this.db.update(apiKeys).set({ lastUsedAt: sql`now()` }).where(eq(apiKeys.id, row.apiKey.id));
    }
    return row;
  }

  async getApiKey(userId: string, id: string): Promise<ApiKeyRow | undefined> {
    const [row] = await this.db.select().from(apiKeys).where(and(eq(apiKeys.id, id), eq(apiKeys.userId, userId)));
    return row;
  }

  /** Revokes the key and every key made from it, from those, and so on; the key itself, or undefined when it is not the user's. */
  async revokeApiKey(userId: string, id: string): Promise<ApiKeyRow | undefined> {
    const result = await this.db.execute<{ id: string }>(sql`
      WITH RECURSIVE family AS (
        SELECT ${apiKeys.id} AS id FROM ${apiKeys} WHERE ${apiKeys.id} = ${id} AND ${apiKeys.userId} = ${userId}
        UNION
        SELECT child.id FROM ${apiKeys} child JOIN family ON child.parent_id = family.id
      )
      UPDATE ${apiKeys} SET revoked_at = coalesce(${apiKeys.revokedAt}, now())
      WHERE ${apiKeys.id} IN (SELECT id FROM family) RETURNING ${apiKeys.id}`);
    if (result.rows.length === 0) return undefined;
    return this.getApiKey(userId, id);
  }
}
