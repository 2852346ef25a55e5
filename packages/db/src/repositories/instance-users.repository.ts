// Database users of an instance. Passwords arrive and leave encrypted (see secrets.ts).
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../client.js';
import { instances, instanceUsers } from '../schema.js';
import type { InstanceRow, InstanceUserRow } from '../provisioning.js';

export type UserPermissionName = InstanceUserRow['permission'];

export class InstanceUsersRepository {
  constructor(private readonly db: Db) {}

  list(instanceId: string): Promise<InstanceUserRow[]> {
    return this.db.select().from(instanceUsers).where(eq(instanceUsers.instanceId, instanceId)).orderBy(asc(instanceUsers.createdAt), asc(instanceUsers.username));
  }

  async get(instanceId: string, username: string): Promise<InstanceUserRow | undefined> {
    const [row] = await this.db.select().from(instanceUsers).where(and(eq(instanceUsers.instanceId, instanceId), eq(instanceUsers.username, username)));
    return row;
  }

  async count(instanceId: string): Promise<number> {
    const [row] = await this.db.select({ n: sql<number>`count(*)::int` }).from(instanceUsers).where(eq(instanceUsers.instanceId, instanceId));
    return row?.n ?? 0;
  }

  async insert(values: { instanceId: string; username: string; permission: UserPermissionName; passwordEncrypted: string }): Promise<InstanceUserRow> {
    const [row] = await this.db.insert(instanceUsers).values(values).returning();
    return row!;
  }

  /** Sets a new password and keeps the current one valid until `oldValidUntil` (rotation). */
  async rotatePassword(instanceId: string, username: string, passwordEncrypted: string, oldValidUntil: Date): Promise<InstanceUserRow | undefined> {
    const [row] = await this.db
      .update(instanceUsers)
      .set({
        oldPasswordEncrypted: sql`${instanceUsers.passwordEncrypted}`,
        oldPasswordExpiresAt: oldValidUntil,
        passwordEncrypted,
        updatedAt: sql`now()`,
      })
      .where(and(eq(instanceUsers.instanceId, instanceId), eq(instanceUsers.username, username)))
      .returning();
    return row;
  }

  async revokeOldPassword(instanceId: string, username: string): Promise<InstanceUserRow | undefined> {
    const [row] = await this.db
      .update(instanceUsers)
      .set({ oldPasswordEncrypted: null, oldPasswordExpiresAt: null, updatedAt: sql`now()` })
      .where(and(eq(instanceUsers.instanceId, instanceId), eq(instanceUsers.username, username)))
      .returning();
    return row;
  }

  /** Instances (of any project: the worker asks) in one of `statuses` with a user whose old password's rotation window has closed. */
  instancesWithExpiredOldPasswords(statuses: InstanceRow['status'][]): Promise<InstanceRow[]> {
    const ids = this.db
      .select({ id: instanceUsers.instanceId })
      .from(instanceUsers)
      .where(and(sql`${instanceUsers.oldPasswordEncrypted} is not null`, sql`${instanceUsers.oldPasswordExpiresAt} <= now()`));
    return this.db.select().from(instances).where(and(inArray(instances.id, ids), inArray(instances.status, statuses)));
  }

  /** Forgets the old passwords whose rotation window has closed; how many. */
  async dropExpiredOldPasswords(instanceId: string): Promise<number> {
    const rows = await this.db
      .update(instanceUsers)
      .set({ oldPasswordEncrypted: null, oldPasswordExpiresAt: null, updatedAt: sql`now()` })
      .where(and(eq(instanceUsers.instanceId, instanceId), sql`${instanceUsers.oldPasswordEncrypted} is not null`, sql`${instanceUsers.oldPasswordExpiresAt} <= now()`))
      .returning({ id: instanceUsers.id });
    return rows.length;
  }

  async updatePermission(instanceId: string, username: string, permission: UserPermissionName): Promise<InstanceUserRow | undefined> {
    const [row] = await this.db
      .update(instanceUsers)
      .set({ permission, updatedAt: sql`now()` })
      .where(and(eq(instanceUsers.instanceId, instanceId), eq(instanceUsers.username, username)))
      .returning();
    return row;
  }

  async delete(instanceId: string, username: string): Promise<boolean> {
    const rows = await this.db.delete(instanceUsers).where(and(eq(instanceUsers.instanceId, instanceId), eq(instanceUsers.username, username))).returning();
    return rows.length > 0;
  }
}
