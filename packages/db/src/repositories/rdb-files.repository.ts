// RDB files moving in and out (issue 44). The API writes an upload (rdb_imports) and asks for
// an export (its pending row, with the operation); the worker's export job alone writes what
// it made (status, object, size), and the backup scheduler removes both once they expire.
import { and, eq, inArray, lte } from 'drizzle-orm';
import type { Db } from '../client.js';
import { rdbExports, rdbImports } from '../schema.js';

export type RdbExportRow = typeof rdbExports.$inferSelect;
export type NewRdbExport = typeof rdbExports.$inferInsert;
export type RdbImportRow = typeof rdbImports.$inferSelect;
export type NewRdbImport = typeof rdbImports.$inferInsert;

export class RdbFilesRepository {
  constructor(private readonly db: Db) {}

  // ---- exports ----

  async insertExport(values: NewRdbExport): Promise<RdbExportRow> {
    const [row] = await this.db.insert(rdbExports).values(values).returning();
    return row!;
  }

  async linkExportOperation(id: string, operationId: string): Promise<void> {
    await this.db.update(rdbExports).set({ operationId }).where(eq(rdbExports.id, id));
  }

  async getExport(projectId: string, id: string): Promise<RdbExportRow | undefined> {
    const [row] = await this.db.select().from(rdbExports).where(and(eq(rdbExports.projectId, projectId), eq(rdbExports.id, id)));
    return row;
  }

  async getExportForJob(id: string): Promise<RdbExportRow | undefined> {
    const [row] = await this.db.select().from(rdbExports).where(eq(rdbExports.id, id));
    return row;
  }

  async markExportRunning(id: string): Promise<void> {
    await this.db.update(rdbExports).set({ status: 'running', error: null }).where(and(eq(rdbExports.id, id), inArray(rdbExports.status, ['pending', 'running', 'failed'])));
  }

  async exportSucceeded(id: string, result: { objectKey: string; sizeBytes: number }): Promise<void> {
    await this.db.update(rdbExports).set({ status: 'succeeded', ...result, error: null }).where(eq(rdbExports.id, id));
  }

  async exportFailed(id: string, error: unknown): Promise<void> {
    await this.db.update(rdbExports).set({ status: 'failed', error }).where(and(eq(rdbExports.id, id), inArray(rdbExports.status, ['pending', 'running'])));
  }

  async expiredExports(now: Date): Promise<RdbExportRow[]> {
    return this.db.select().from(rdbExports).where(lte(rdbExports.expiresAt, now));
  }

  async removeExport(id: string): Promise<void> {
    await this.db.delete(rdbExports).where(eq(rdbExports.id, id));
  }

  // ---- imports ----

  async insertImport(values: NewRdbImport): Promise<RdbImportRow> {
    const [row] = await this.db.insert(rdbImports).values(values).returning();
    return row!;
  }

  async getImport(projectId: string, id: string): Promise<RdbImportRow | undefined> {
    const [row] = await this.db.select().from(rdbImports).where(and(eq(rdbImports.projectId, projectId), eq(rdbImports.id, id)));
    return row;
  }

  async getImportForJob(id: string): Promise<RdbImportRow | undefined> {
    const [row] = await this.db.select().from(rdbImports).where(eq(rdbImports.id, id));
    return row;
  }

  async expiredImports(now: Date): Promise<RdbImportRow[]> {
    return this.db.select().from(rdbImports).where(lte(rdbImports.expiresAt, now));
  }

  async removeImport(id: string): Promise<void> {
    await this.db.delete(rdbImports).where(eq(rdbImports.id, id));
  }
}
