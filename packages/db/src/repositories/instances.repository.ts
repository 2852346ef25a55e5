// Instances as the API sees them: every read and write is scoped by project. List queries use
// keyset pagination over (sort key, id) backed by the (project_id, created_at|name, id) indexes.
import { createHash } from 'node:crypto';
import type pg from 'pg';
import { and, eq, ne, sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Db } from '../client.js';
import { instances, instanceTypes } from '../schema.js';
import { isoText } from './iso-text.js';
import type { InstanceRow, InstanceStatus } from '../provisioning.js';

export type NewInstance = typeof instances.$inferInsert;

/** What a project's live instances take (quotas). */
export interface ProjectUsage {
  instances: number;
  vcpu: number;
  memory_gib: number;
}

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

/**
 * An instance with its JSON columns as JSON text and its timestamps as ISO 8601 text, for a
 * presenter that writes the API's JSON without parsing and re-serialising them: a 50-row page
 * costs the API a third of the CPU of mapped rows (services/api/README.md, "List benchmark").
 */
export interface InstanceTextRow {
  id: string;
  project_id: string;
  name: string;
  instance_type: string;
  region: string;
  engine_version: string;
  disk_gib: number;
  architecture: InstanceRow['architecture'];
  replicas: number;
  status: InstanceRow['status'];
  health: InstanceRow['health'];
  health_reason: string | null;
  fault: string | null;
  /** Each endpoint with the fields the API declares (EndpointDto) only. */
  endpoints: string;
  /** Each node with the fields the API declares (NodeDto) only: never its SSH user or data directory. */
  nodes: string;
  tls_enabled: boolean;
  deletion_protection: boolean;
  data_browser_enabled: boolean;
  tags: string;
  parameters: string;
  backup_window: string;
  backup_retention_days: number;
  /** JSON text of RestoredFrom, or null. */
  restored_from: string | null;
  current_operation_id: string | null;
  /** Milliseconds, as Date.prototype.toISOString writes them. */
  created_at: string;
  updated_at: string;
  /** The sort value a cursor after this row carries: the name, or created_at to the microsecond
   *  (a millisecond cursor would skip rows created later in the same millisecond). */
  sort_value: string;
}

const dialect = new PgDialect();
// The declared fields of each node and endpoint, in the DTOs' order (instance-topology.ts).
const NODES_TEXT = sql.raw(`(SELECT coalesce(jsonb_agg(jsonb_build_object('name', n->'name', 'private_ip', n->'private_ip',
  'role', n->'role', 'status', n->'status', 'lag_bytes', n->'lag_bytes') ORDER BY ord), '[]'::jsonb)
  FROM jsonb_array_elements(CASE WHEN jsonb_typeof(nodes) = 'array' THEN nodes ELSE '[]'::jsonb END) WITH ORDINALITY AS e(n, ord))::text`);
const ENDPOINTS_TEXT = sql.raw(`(SELECT coalesce(jsonb_agg(jsonb_strip_nulls(jsonb_build_object('role', p->'role', 'type', p->'type', 'host', p->'host',
  'port', p->'port', 'tls', p->'tls', 'ca_certificate', p->'ca_certificate')) ORDER BY ord), '[]'::jsonb)
  FROM jsonb_array_elements(CASE WHEN jsonb_typeof(endpoints) = 'array' THEN endpoints ELSE '[]'::jsonb END) WITH ORDINALITY AS e(p, ord))::text`);
const TEXT_COLUMNS = sql`id, project_id, name, instance_type, region, engine_version, disk_gib, architecture, replicas, status, health,
  health_reason, fault::text AS fault, ${ENDPOINTS_TEXT} AS endpoints, ${NODES_TEXT} AS nodes, tls_enabled, deletion_protection, data_browser_enabled,
  tags::text AS tags, parameters::text AS parameters, backup_window, backup_retention_days, restored_from::text AS restored_from, current_operation_id,
  ${isoText(instances.createdAt)} AS created_at, ${isoText(instances.updatedAt)} AS updated_at`;

export class InstancesRepository {
  constructor(private readonly db: Db) {}

  /** One page of instances as text rows, in (sort key, id) order after the cursor. */
  async list(projectId: string, query: InstanceListQuery): Promise<InstanceTextRow[]> {
    const where: SQL[] = [sql`project_id = ${projectId}`];
    // Deduplicated: each distinct statement text is a prepared statement on every connection.
    if (query.status?.length) where.push(sql`status IN (${sql.join([...new Set(query.status)].map((s) => sql`${s}`), sql`, `)})`);
    else if (!query.includeDeleted) where.push(sql`status <> 'deleted'`);
    if (query.region) where.push(sql`region = ${query.region}`);
    if (query.instanceType) where.push(sql`instance_type = ${query.instanceType}`);
    if (query.nameContains) where.push(sql`strpos(lower(name), lower(${query.nameContains})) > 0`);
    if (query.tag) {
      where.push(
        query.tag.value === undefined ? sql`tags ? ${query.tag.key}` : sql`tags @> ${JSON.stringify({ [query.tag.key]: query.tag.value })}::jsonb`,
      );
    }
    const byName = query.sort === 'name';
    // Qualified: a bare created_at in ORDER BY would name the text column of the same alias.
    const column = sql.raw(byName ? 'instances.name' : 'instances.created_at');
    if (query.after) {
      // A row comparison, so the (project_id, sort key, id) index serves it; the cursor's
      // timestamp goes to PostgreSQL as text, keeping its microseconds.
      const value = byName ? sql`${query.after.value}` : sql`${query.after.value}::timestamptz`;
      where.push(sql`(${column}, id) ${sql.raw(query.order === 'asc' ? '>' : '<')} (${value}, ${query.after.id}::uuid)`);
    }
    const direction = sql.raw(query.order === 'asc' ? 'ASC' : 'DESC');
    return this.prepared<InstanceTextRow>(sql`
      SELECT ${TEXT_COLUMNS}, ${byName ? instances.name : isoText(instances.createdAt, 'us')} AS sort_value
      FROM instances WHERE ${sql.join(where, sql` AND `)}
      ORDER BY ${column} ${direction}, instances.id ${direction} LIMIT ${query.limit}`);
  }

  /** One instance as a text row (see InstanceTextRow). */
  async getText(projectId: string, id: string): Promise<InstanceTextRow | undefined> {
    const [row] = await this.prepared<InstanceTextRow>(
      sql`SELECT ${TEXT_COLUMNS}, name AS sort_value FROM instances WHERE project_id = ${projectId} AND id = ${id}`,
    );
    return row;
  }

  /**
   * Plain SQL as a named prepared statement: PostgreSQL plans each query shape once per connection
   * instead of on every call, and no select builder maps the rows (they are text already).
   */
  private async prepared<T>(query: SQL): Promise<T[]> {
    const { sql: text, params } = dialect.sqlToQuery(query);
    const name = `instances_${createHash('sha1').update(text).digest('hex').slice(0, 16)}`;
    // The pool, or the client of a transaction: drizzle keeps it as $client.
    const client = (this.db as unknown as { $client: Pick<pg.Pool, 'query'> }).$client;
    const result = await client.query({ name, text, values: params });
    return result.rows as T[];
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

  /**
   * What the project's live instances take, by their types and node counts: count, vCPU, memory. `exceptId`
   * leaves one out (the instance a resize replaces). Inside a transaction, `lock` first
   * serialises checks of one project, so two creates cannot both take the last room.
   */
  async usage(projectId: string, options: { exceptId?: string; lock?: boolean } = {}): Promise<ProjectUsage> {
    if (options.lock) await this.db.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${'basalt-quota:' + projectId}, 0))`);
    const [row] = await this.db
      .select({
        instances: sql<number>`count(*)::int`,
        // Every node takes its type's size: the primary and each replica.
        vcpu: sql<number>`coalesce(sum(${instanceTypes.vcpu} * (1 + ${instances.replicas})), 0)::float8`,
        memory_gib: sql<number>`coalesce(sum(${instanceTypes.memoryGib} * (1 + ${instances.replicas})), 0)::float8`,
      })
      .from(instances)
      .innerJoin(instanceTypes, eq(instanceTypes.id, instances.instanceType))
      .where(
        and(eq(instances.projectId, projectId), ne(instances.status, 'deleted'), options.exceptId ? ne(instances.id, options.exceptId) : undefined),
      );
    return row ?? { instances: 0, vcpu: 0, memory_gib: 0 };
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
