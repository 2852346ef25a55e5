// Operations as the API sees them (scoped by project) and their event stream.
import { and, asc, desc, eq, getTableColumns, gt, inArray, notInArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../client.js';
import { operationEvents, operations } from '../schema.js';
import type { OperationRow } from '../provisioning.js';
import { isoText } from './iso-text.js';
import { OUT_OF_TURN } from '../operation-kinds.js';

export type NewOperation = typeof operations.$inferInsert;
export type OperationEventRow = typeof operationEvents.$inferSelect;

export class OperationsRepository {
  constructor(private readonly db: Db) {}

  async insert(values: NewOperation): Promise<OperationRow> {
    const [row] = await this.db.insert(operations).values(values).returning();
    await this.db.insert(operationEvents).values({ operationId: row!.id, kind: 'operation_created', message: `${row!.type} requested` });
    return row!;
  }

  async get(projectId: string, id: string): Promise<OperationRow | undefined> {
    const [row] = await this.db.select().from(operations).where(and(eq(operations.projectId, projectId), eq(operations.id, id)));
    return row;
  }

  /**
   * Newest first, each with `cursorAt`, its created_at to the microsecond; `before` is the
   * (cursorAt, id) of the last row of the previous page.
   */
  listForInstance(
    projectId: string,
    instanceId: string,
    limit: number,
    before?: { createdAt: string; id: string },
  ): Promise<(OperationRow & { cursorAt: string })[]> {
    const where: SQL[] = [eq(operations.projectId, projectId), eq(operations.instanceId, instanceId)];
    // The cursor's timestamp goes to PostgreSQL as text, keeping its microseconds.
    if (before) where.push(sql`(${operations.createdAt}, ${operations.id}) < (${before.createdAt}::timestamptz, ${before.id}::uuid)`);
    return this.db
      .select({ ...getTableColumns(operations), cursorAt: isoText(operations.createdAt, 'us') })
      .from(operations)
      .where(and(...where))
      .orderBy(desc(operations.createdAt), desc(operations.id))
      .limit(limit);
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

  /**
   * The instance's oldest unfinished operation of the kinds that take turns (operation-kinds.ts):
   * the one whose turn it is. Oldest by the time it was asked for (the starter's transaction).
   */
  async firstInTurn(instanceId: string): Promise<OperationRow | undefined> {
    const [row] = await this.db
      .select()
      .from(operations)
      .where(and(eq(operations.instanceId, instanceId), inArray(operations.status, ['pending', 'running']), notInArray(operations.type, OUT_OF_TURN)))
      .orderBy(asc(operations.createdAt), asc(operations.id))
      .limit(1);
    return row;
  }

  /**
   * The instance's unfinished failover or rebuild that the failover monitor started (not a
   * switchover asked for through the API): the work that preempts every other on the instance.
   */
  async rescuingFailover(instanceId: string): Promise<OperationRow | undefined> {
    const [row] = await this.db
      .select()
      .from(operations)
      .where(
        and(
          eq(operations.instanceId, instanceId),
          eq(operations.type, 'failover'),
          inArray(operations.status, ['pending', 'running']),
          sql`coalesce(${operations.params}->>'mode', 'automatic') <> 'switchover'`,
        ),
      )
      .orderBy(asc(operations.createdAt))
      .limit(1);
    return row;
  }

  async getById(id: string): Promise<OperationRow | undefined> {
    const [row] = await this.db.select().from(operations).where(eq(operations.id, id));
    return row;
  }
}
