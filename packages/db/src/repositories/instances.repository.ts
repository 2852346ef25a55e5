// Instances as the API sees them: every read and write is scoped by project. List queries use
// keyset pagination over (sort key, id) backed by the (project_id, created_at|name, id) indexes.
import { and, asc, desc, eq, gt, lt, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../client.js';
import { instances } from '../schema.js';
import type { InstanceRow, InstanceStatus } from '../provisioning.js';

export type NewInstance = typeof instances.$inferInsert;

export interface InstanceListQuery {
  status?: InstanceStatus[];
  includeDeleted?: boolean;
  region?: string;
  instanceType?: string;
  nameContains?: string;
  tag?: { key: string; value?: string };
  sort: 'created_at' | 'name';
  order: 'asc' | 'desc';
  limit: number;
  /** The (sort value, id) of the last row of the previous page. */
  after?: { value: string; id: string };
}

export class InstancesRepository {
  constructor(private readonly db: Db) {}

  async list(projectId: string, query: InstanceListQuery): Promise<InstanceRow[]> {
    const where: (SQL | undefined)[] = [eq(instances.projectId, projectId)];
    if (query.status?.length) where.push(sql`${instances.status} IN (${sql.join(query.status.map((s) => sql`${s}`), sql`, `)})`);
    else if (!query.includeDeleted) where.push(ne(instances.status, 'deleted'));
    if (query.region) where.push(eq(instances.region, query.region));
    if (query.instanceType) where.push(eq(instances.instanceType, query.instanceType));
    if (query.nameContains) where.push(sql`strpos(lower(${instances.name}), lower(${query.nameContains})) > 0`);
    if (query.tag) {
      where.push(
        query.tag.value === undefined
          ? sql`${instances.tags} ? ${query.tag.key}`
          : sql`${instances.tags} @> ${JSON.stringify({ [query.tag.key]: query.tag.value })}::jsonb`,
      );
    }
    const column = query.sort === 'name' ? instances.name : instances.createdAt;
    if (query.after) {
      const value = query.sort === 'name' ? query.after.value : new Date(query.after.value);
      const beyond = query.order === 'asc' ? gt : lt;
      where.push(or(beyond(column, value), and(eq(column, value), beyond(instances.id, query.after.id))));
    }
    const direction = query.order === 'asc' ? asc : desc;
    return this.db
      .select()
      .from(instances)
      .where(and(...where))
      .orderBy(direction(column), direction(instances.id))
      .limit(query.limit);
  }

  async get(projectId: string, id: string): Promise<InstanceRow | undefined> {
    const [row] = await this.db.select().from(instances).where(and(eq(instances.projectId, projectId), eq(instances.id, id)));
    return row;
  }

  async insert(values: NewInstance): Promise<InstanceRow> {
    const [row] = await this.db.insert(instances).values(values).returning();
    return row!;
  }

  async update(projectId: string, id: string, values: Partial<NewInstance>): Promise<InstanceRow | undefined> {
    const [row] = await this.db
      .update(instances)
      .set({ ...values, updatedAt: sql`now()` })
      .where(and(eq(instances.projectId, projectId), eq(instances.id, id)))
      .returning();
    return row;
  }

  /** Whether a live (not deleted) instance of this project already has the name. */
  async nameTaken(projectId: string, name: string, exceptId?: string): Promise<boolean> {
    const rows = await this.db
      .select({ id: instances.id })
      .from(instances)
      .where(and(eq(instances.projectId, projectId), eq(instances.name, name), ne(instances.status, 'deleted')));
    return rows.some((r) => r.id !== exceptId);
  }
}
