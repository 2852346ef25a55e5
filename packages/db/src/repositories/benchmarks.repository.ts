// Benchmark runs: per instance (project-scoped) and reference runs per instance type (project null).
import { and, desc, eq, isNull } from 'drizzle-orm';
import type { Db } from '../client.js';
import { benchmarks } from '../schema.js';

export type BenchmarkRow = typeof benchmarks.$inferSelect;
export type NewBenchmark = typeof benchmarks.$inferInsert;

export class BenchmarksRepository {
  constructor(private readonly db: Db) {}

  async insert(values: NewBenchmark): Promise<BenchmarkRow> {
    const [row] = await this.db.insert(benchmarks).values(values).returning();
    return row!;
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

  /** Published reference runs of an instance type (not tied to a customer's instance). */
  listReference(instanceType: string, limit = 100): Promise<BenchmarkRow[]> {
    return this.db
      .select()
      .from(benchmarks)
      .where(and(eq(benchmarks.instanceType, instanceType), isNull(benchmarks.projectId)))
      .orderBy(desc(benchmarks.createdAt))
      .limit(limit);
  }

  /** Used by the benchmark job to record progress and results. */
  async update(id: string, values: Partial<Pick<NewBenchmark, 'status' | 'results' | 'finishedAt'>>): Promise<BenchmarkRow | undefined> {
    const [row] = await this.db.update(benchmarks).set(values).where(eq(benchmarks.id, id)).returning();
    return row;
  }
}
