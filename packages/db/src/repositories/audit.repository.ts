// The audit log: one row per mutating API call, newest first when read.
import { and, desc, eq, lt, type SQL } from 'drizzle-orm';
import type { Db } from '../client.js';
import { auditLog } from '../schema.js';

export type AuditRow = typeof auditLog.$inferSelect;
export type NewAudit = typeof auditLog.$inferInsert;

export class AuditRepository {
  constructor(private readonly db: Db) {}

  async record(values: NewAudit): Promise<void> {
    await this.db.insert(auditLog).values(values);
  }

  list(projectId: string, limit: number, beforeId?: number): Promise<AuditRow[]> {
    const where: SQL[] = [eq(auditLog.projectId, projectId)];
    if (beforeId !== undefined) where.push(lt(auditLog.id, beforeId));
    return this.db.select().from(auditLog).where(and(...where)).orderBy(desc(auditLog.id)).limit(limit);
  }
}
