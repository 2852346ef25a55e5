// Per-type benchmark reports (instance_type_reports) and the platform's own project their
// temporary instances live in: a project with no members, so no customer ever sees them.
import { and, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Db } from '../client.js';
import { controlPlaneSettings, instances, instanceTypeReports, projects } from '../schema.js';

export type TypeReportRow = typeof instanceTypeReports.$inferSelect;
export type NewTypeReport = typeof instanceTypeReports.$inferInsert;
export type TypeReportPatch = Partial<
  Pick<NewTypeReport, 'status' | 'startedAt' | 'finishedAt' | 'engineVersion' | 'peers' | 'environment' | 'headline' | 'markdown' | 'operationId' | 'document' | 'host' | 'sourceCommit'>
>;
/** A committed report as the loader stores it: succeeded, measured when, where and on what its document says. */
export type PublishedTypeReport = Pick<NewTypeReport, 'instanceType' | 'suites' | 'engineVersion' | 'peers' | 'environment' | 'headline' | 'markdown' | 'document' | 'host' | 'sourceCommit'> & { measuredAt: Date };

/**
 * Which succeeded report a type's figures come from: one made on this install before any
 * published one (a published report never overrides a local one), then the newest.
 */
const PREFERRED = [sql`(${instanceTypeReports.origin} = 'local') desc`, sql`coalesce(${instanceTypeReports.finishedAt}, ${instanceTypeReports.startedAt}) desc nulls last`];

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

  /** Newest first (a list). */
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
      .orderBy(...PREFERRED)
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
      .orderBy(instanceTypeReports.instanceType, ...PREFERRED);
    return new Map(rows.map((row) => [row.instanceType, row]));
  }

  /**
   * Stores a committed report once (the same type measured at the same time is the same
   * report: a second start inserts nothing). It has no instance, operation or creator: no one
   * asked this install for it. Returns whether it was new.
   */
  async insertPublished(report: PublishedTypeReport): Promise<boolean> {
    const { measuredAt, ...rest } = report;
    const rows = await this.db
      .insert(instanceTypeReports)
      .values({ ...rest, origin: 'published', status: 'succeeded', startedAt: measuredAt })
      .onConflictDoNothing({ target: [instanceTypeReports.instanceType, instanceTypeReports.startedAt], where: sql`${instanceTypeReports.origin} = 'published'` })
      .returning({ id: instanceTypeReports.id });
    return rows.length > 0;
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
