// Operations as the API sees them (scoped by project) and their event stream.
import { and, asc, desc, eq, gt, lt, or, type SQL } from 'drizzle-orm';
import type { Db } from '../client.js';
import { operationEvents, operations } from '../schema.js';
import type { OperationRow } from '../provisioning.js';

export type NewOperation = typeof operations.$inferInsert;
export type OperationEventRow = typeof operationEvents.$inferSelect;

export class OperationsRepository {
  constructor(private readonly db: Db) {}

  async insert(values: NewOperation): Promise<OperationRow> {
    const [row] = await this.db.insert(operations).values(values).returning();
    await this.db.insert(operationEvents).values({ operationId: row!.id, kind: 'operation_created', message: `${row!.type} requested` });
    return row!;
  }

  /** The operation if it belongs to one of `projectIds`. */
  async getInProjects(id: string, projectIds: string[]): Promise<OperationRow | undefined> {
    const [row] = await this.db.select().from(operations).where(eq(operations.id, id));
    return row && projectIds.includes(row.projectId) ? row : undefined;
  }

  async get(projectId: string, id: string): Promise<OperationRow | undefined> {
    const [row] = await this.db.select().from(operations).where(and(eq(operations.projectId, projectId), eq(operations.id, id)));
    return row;
  }

  /** Newest first; `before` is the (created_at, id) of the last row of the previous page. */
  listForInstance(projectId: string, instanceId: string, limit: number, before?: { createdAt: Date; id: string }): Promise<OperationRow[]> {
    const where: (SQL | undefined)[] = [eq(operations.projectId, projectId), eq(operations.instanceId, instanceId)];
    if (before) where.push(or(lt(operations.createdAt, before.createdAt), and(eq(operations.createdAt, before.createdAt), lt(operations.id, before.id))));
    return this.db.select().from(operations).where(and(...where)).orderBy(desc(operations.createdAt), desc(operations.id)).limit(limit);
  }

  /** Events after `afterId`, oldest first. */
  eventsAfter(operationId: string, afterId: number, limit = 500): Promise<OperationEventRow[]> {
    return this.db
      .select()
      .from(operationEvents)
      .where(and(eq(operationEvents.operationId, operationId), gt(operationEvents.id, afterId)))
      .orderBy(asc(operationEvents.id))
      .limit(limit);
  }

  async getById(id: string): Promise<OperationRow | undefined> {
    const [row] = await this.db.select().from(operations).where(eq(operations.id, id));
    return row;
  }

  async markFailed(id: string, error: { code: string; message: string; step: string | null }): Promise<void> {
    await this.db.update(operations).set({ status: 'failed', error, finishedAt: new Date(), updatedAt: new Date() }).where(eq(operations.id, id));
  }
}
