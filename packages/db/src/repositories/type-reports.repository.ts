// Per-type benchmark reports (instance_type_reports) and the platform's own project their
// temporary instances live in: a project with no members, so no customer ever sees them.
import { and, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Db } from '../client.js';
import { controlPlaneSettings, instances, instanceTypeReports, projects } from '../schema.js';

export type TypeReportRow = typeof instanceTypeReports.$inferSelect;
export type NewTypeReport = typeof instanceTypeReports.$inferInsert;
export type TypeReportPatch = Partial<Pick<NewTypeReport, 'status' | 'startedAt' | 'finishedAt' | 'engineVersion' | 'peers' | 'environment' | 'headline' | 'markdown' | 'operationId'>>;

/** control_plane_settings key naming the project that holds the reports' temporary instances. */
const REPORTS_PROJECT_KEY = 'benchmark_reports_project';

export class TypeReportsRepository {
  constructor(private readonly db: Db) {}

  /**
   * The id of the platform's project for report instances, made on first use. Call inside a
   * transaction: the advisory lock keeps two first requests from making two projects.
   */
  async reportsProject(): Promise<string> {
    await this.db.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${REPORTS_PROJECT_KEY}, 0))`);
    const [found] = await this.db.select().from(controlPlaneSettings).where(eq(controlPlaneSettings.key, REPORTS_PROJECT_KEY));
    if (found) return found.value;
    const [project] = await this.db.insert(projects).values({ name: 'Basalt benchmark reports (platform)' }).returning();
    await this.db.insert(controlPlaneSettings).values({ key: REPORTS_PROJECT_KEY, value: project!.id });
    return project!.id;
  }

  /** The platform's project for report instances; undefined before the first report. */
  async reportsProjectId(): Promise<string | undefined> {
    const [found] = await this.db.select().from(controlPlaneSettings).where(eq(controlPlaneSettings.key, REPORTS_PROJECT_KEY));
    return found?.value;
  }

  async insert(values: NewTypeReport): Promise<TypeReportRow> {
    const [row] = await this.db.insert(instanceTypeReports).values(values).returning();
    return row!;
  }

  async get(instanceType: string, id: string): Promise<TypeReportRow | undefined> {
    const [row] = await this.db
      .select()
      .from(instanceTypeReports)
      .where(and(eq(instanceTypeReports.instanceType, instanceType), eq(instanceTypeReports.id, id)));
    return row;
  }

  /** Newest first, without the markdown (a list). */
  listForType(instanceType: string, limit = 50): Promise<TypeReportRow[]> {
    return this.db
      .select()
      .from(instanceTypeReports)
      .where(eq(instanceTypeReports.instanceType, instanceType))
      .orderBy(desc(instanceTypeReports.createdAt))
      .limit(limit);
  }

  async latestSucceeded(instanceType: string): Promise<TypeReportRow | undefined> {
    const [row] = await this.db
      .select()
      .from(instanceTypeReports)
      .where(and(eq(instanceTypeReports.instanceType, instanceType), eq(instanceTypeReports.status, 'succeeded')))
      .orderBy(desc(instanceTypeReports.finishedAt))
      .limit(1);
    return row;
  }

  /** The newest succeeded report of each of `instanceTypes` (the catalog's reference figures). */
  async latestSucceededOf(instanceTypes: string[]): Promise<Map<string, TypeReportRow>> {
    if (instanceTypes.length === 0) return new Map();
    const rows = await this.db
      .selectDistinctOn([instanceTypeReports.instanceType])
      .from(instanceTypeReports)
      .where(and(inArray(instanceTypeReports.instanceType, instanceTypes), eq(instanceTypeReports.status, 'succeeded')))
      .orderBy(instanceTypeReports.instanceType, desc(instanceTypeReports.finishedAt));
    return new Map(rows.map((row) => [row.instanceType, row]));
  }

  /** The status of the reports' temporary instances (platform-owned: not scoped by a caller's project). */
  async instanceStatuses(ids: string[]): Promise<Map<string, (typeof instances.$inferSelect)['status']>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db.select({ id: instances.id, status: instances.status }).from(instances).where(inArray(instances.id, ids));
    return new Map(rows.map((row) => [row.id, row.status]));
  }

  // ---- the worker's benchmark_report job (the only writer after the request) ----

  async getForJob(id: string): Promise<TypeReportRow | undefined> {
    const [row] = await this.db.select().from(instanceTypeReports).where(eq(instanceTypeReports.id, id));
    return row;
  }

  /** Finished reports whose temporary instance is still there (its delete failed). */
  listLeftInstances(): Promise<{ reportId: string; instanceId: string }[]> {
    return this.db
      .select({ reportId: instanceTypeReports.id, instanceId: instances.id })
      .from(instanceTypeReports)
      .innerJoin(instances, eq(instances.id, instanceTypeReports.instanceId))
      .where(and(inArray(instanceTypeReports.status, ['succeeded', 'failed', 'cancelled']), ne(instances.status, 'deleted')));
  }

  async update(id: string, patch: TypeReportPatch): Promise<void> {
    await this.db.update(instanceTypeReports).set(patch).where(eq(instanceTypeReports.id, id));
  }
}
