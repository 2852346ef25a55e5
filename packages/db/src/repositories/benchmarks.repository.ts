// Benchmark runs per instance (project-scoped; a per-type report's runs are those of its
// temporary instance in the platform's project), and the scenarios the worker's benchmark job measured for each run.
import { and, asc, desc, eq, getTableColumns, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../client.js';
import { benchmarks, benchmarkScenarios } from '../schema.js';

export type BenchmarkRow = typeof benchmarks.$inferSelect;
export type NewBenchmark = typeof benchmarks.$inferInsert;
export type BenchmarkScenarioRow = typeof benchmarkScenarios.$inferSelect;
export type NewBenchmarkScenario = typeof benchmarkScenarios.$inferInsert;
/**
 * A scenario without the tool's JSON report; the parts of it a list needs: `encryption`
 * (encryption-overhead's variant) and `rounds`, every round's ops/s (a scenario measured in rounds).
 */
export type BenchmarkScenarioSummary = Omit<BenchmarkScenarioRow, 'report'> & { encryption: unknown; rounds: unknown };

/** A run that has not finished yet: it can still be cancelled. */
const UNFINISHED: BenchmarkRow['status'][] = ['pending', 'running'];

export class BenchmarksRepository {
  constructor(private readonly db: Db) {}

  async insert(values: NewBenchmark): Promise<BenchmarkRow> {
    const [row] = await this.db.insert(benchmarks).values(values).returning();
    return row!;
  }

  /**
   * The project's runs still pending or running, counted under a per-project lock held to the
   * end of the transaction, so two requests at once cannot both take the last place.
   */
  async countUnfinishedLocked(projectId: string): Promise<number> {
    await this.db.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${'basalt-benchmarks:' + projectId}, 0))`);
    const [row] = await this.db
      .select({ count: sql<number>`count(*)::int` })
      .from(benchmarks)
      .where(and(eq(benchmarks.projectId, projectId), inArray(benchmarks.status, UNFINISHED)));
    return row?.count ?? 0;
  }

  listForInstance(projectId: string, instanceId: string, limit = 100): Promise<BenchmarkRow[]> {
    return this.db
      .select()
      .from(benchmarks)
      .where(and(eq(benchmarks.projectId, projectId), eq(benchmarks.instanceId, instanceId)))
      .orderBy(desc(benchmarks.createdAt))
      .limit(limit);
  }

  async get(projectId: string, instanceId: string, id: string): Promise<BenchmarkRow | undefined> {
    const [row] = await this.db
      .select()
      .from(benchmarks)
      .where(and(eq(benchmarks.projectId, projectId), eq(benchmarks.instanceId, instanceId), eq(benchmarks.id, id)));
    return row;
  }

  /** Asks the worker to stop the run; undefined when the run does not exist or has already finished. */
  async requestCancel(projectId: string, instanceId: string, id: string): Promise<BenchmarkRow | undefined> {
    const [row] = await this.db
      .update(benchmarks)
      .set({ cancelRequestedAt: new Date() })
      .where(
        and(
          eq(benchmarks.projectId, projectId),
          eq(benchmarks.instanceId, instanceId),
          eq(benchmarks.id, id),
          inArray(benchmarks.status, UNFINISHED),
          isNull(benchmarks.cancelRequestedAt),
        ),
      )
      .returning();
    return row;
  }

  /** The scenarios of the given runs, in the order they ran (the instance, then its peer). */
  listScenarios(benchmarkIds: string[]): Promise<BenchmarkScenarioRow[]> {
    if (benchmarkIds.length === 0) return Promise.resolve([]);
    return this.db
      .select()
      .from(benchmarkScenarios)
      .where(inArray(benchmarkScenarios.benchmarkId, benchmarkIds))
      .orderBy(asc(benchmarkScenarios.benchmarkId), asc(benchmarkScenarios.position), asc(benchmarkScenarios.server));
  }

  /** The same without the tool's JSON reports (hundreds of KB each), for lists. */
  listScenarioSummaries(benchmarkIds: string[]): Promise<BenchmarkScenarioSummary[]> {
    if (benchmarkIds.length === 0) return Promise.resolve([]);
    const { report: _report, ...columns } = getTableColumns(benchmarkScenarios);
    return this.db
      .select({
        ...columns,
        encryption: sql<unknown>`${benchmarkScenarios.report} -> 'encryption'`,
        rounds: sql<unknown>`jsonb_path_query_array(${benchmarkScenarios.report}, '$.rounds[*]."Ops/sec"')`,
      })
      .from(benchmarkScenarios)
      .where(inArray(benchmarkScenarios.benchmarkId, benchmarkIds))
      .orderBy(asc(benchmarkScenarios.benchmarkId), asc(benchmarkScenarios.position), asc(benchmarkScenarios.server));
  }

  /** Links a run to the operation that carries it (started in the same request). */
  async linkOperation(id: string, operationId: string): Promise<void> {
    await this.db.update(benchmarks).set({ operationId }).where(eq(benchmarks.id, id));
  }

  // ---- the worker's benchmark job (the only writer of a run's progress and scenarios) ----

  async getForJob(id: string): Promise<BenchmarkRow | undefined> {
    const [row] = await this.db.select().from(benchmarks).where(eq(benchmarks.id, id));
    return row;
  }

  async update(id: string, values: Partial<Pick<NewBenchmark, 'status' | 'results' | 'startedAt' | 'finishedAt'>>): Promise<BenchmarkRow | undefined> {
    const [row] = await this.db.update(benchmarks).set(values).where(eq(benchmarks.id, id)).returning();
    return row;
  }

  async insertScenario(values: NewBenchmarkScenario): Promise<BenchmarkScenarioRow> {
    const [row] = await this.db.insert(benchmarkScenarios).values(values).returning();
    return row!;
  }

  /** A retried job starts its run over: the scenarios of an earlier attempt go. */
  async clearScenarios(benchmarkId: string): Promise<void> {
    await this.db.delete(benchmarkScenarios).where(eq(benchmarkScenarios.benchmarkId, benchmarkId));
  }
}
