// Backups and the log archive (issue 44). The API writes what a person asks (a backup asked
// for, one asked to go); the worker's backup job and archiver alone write what they found
// (segments stored, a backup's range and size, the archive's progress).
import { and, asc, desc, eq, inArray, isNotNull, lte, sql } from 'drizzle-orm';
import type { Db } from '../client.js';
import { archivedSegments, backups, instanceArchives } from '../schema.js';

export type BackupRow = typeof backups.$inferSelect;
export type NewBackup = typeof backups.$inferInsert;
export type InstanceArchiveRow = typeof instanceArchives.$inferSelect;
export type ArchivedSegmentRow = typeof archivedSegments.$inferSelect;
export type NewArchivedSegment = typeof archivedSegments.$inferInsert;
export type ArchiveProgress = Partial<Pick<InstanceArchiveRow, 'archivedTime' | 'archivedLsn' | 'checkedAt' | 'lastError' | 'sourceNode' | 'timeline'>>;
export type BackupResult = Pick<BackupRow, 'timeline' | 'endLsn' | 'endTime' | 'segments' | 'segmentIds' | 'sizeBytes' | 'uploadedBytes' | 'manifestKey'>;

/**
 * The latest point the archive holds: its newest record's time, or, when the archiver last
 * caught up with the node after it, that moment (the data did not change in between).
 */
export function archivedThrough(archive: Pick<InstanceArchiveRow, 'archivedTime' | 'checkedAt'> | undefined): Date | null {
  const times = [archive?.archivedTime, archive?.checkedAt].filter((t): t is Date => t instanceof Date);
  return times.length ? new Date(Math.max(...times.map((t) => t.getTime()))) : null;
}

/** Seconds since the archive last caught up with the node; null before its first pass. */
export function archiveLagSeconds(archive: Pick<InstanceArchiveRow, 'checkedAt'> | undefined, now = new Date()): number | null {
  return archive?.checkedAt ? Math.max(0, Math.round((now.getTime() - archive.checkedAt.getTime()) / 1000)) : null;
}

export class BackupsRepository {
  constructor(private readonly db: Db) {}

  // ---- the archive ----

  /** The instance's archive, made with `dataKeyEncrypted` (and timeline 1) when it has none yet. */
  async archiveOf(instanceId: string, projectId: string, dataKeyEncrypted: string): Promise<InstanceArchiveRow> {
    await this.db.insert(instanceArchives).values({ instanceId, projectId, dataKeyEncrypted }).onConflictDoNothing();
    const [row] = await this.db.select().from(instanceArchives).where(eq(instanceArchives.instanceId, instanceId));
    return row!;
  }

  async getArchive(instanceId: string): Promise<InstanceArchiveRow | undefined> {
    const [row] = await this.db.select().from(instanceArchives).where(eq(instanceArchives.instanceId, instanceId));
    return row;
  }

  async setArchiveProgress(instanceId: string, progress: ArchiveProgress): Promise<void> {
    await this.db.update(instanceArchives).set({ ...progress, updatedAt: new Date() }).where(eq(instanceArchives.instanceId, instanceId));
  }

  /** Records a stored segment; a second record of the same one (a retry) changes nothing. */
  async recordSegment(segment: NewArchivedSegment): Promise<void> {
    await this.db.insert(archivedSegments).values(segment).onConflictDoNothing();
  }

  async segmentsOf(instanceId: string, timeline: number): Promise<ArchivedSegmentRow[]> {
    return this.db
      .select()
      .from(archivedSegments)
      .where(and(eq(archivedSegments.instanceId, instanceId), eq(archivedSegments.timeline, timeline)))
      .orderBy(asc(archivedSegments.segment));
  }

  async removeSegments(instanceId: string, timeline: number, segments: number[]): Promise<void> {
    if (segments.length === 0) return;
    await this.db
      .delete(archivedSegments)
      .where(and(eq(archivedSegments.instanceId, instanceId), eq(archivedSegments.timeline, timeline), inArray(archivedSegments.segment, segments)));
  }

  // ---- backups ----

  async insert(values: NewBackup): Promise<BackupRow> {
    const [row] = await this.db.insert(backups).values(values).returning();
    return row!;
  }

  async get(projectId: string, id: string): Promise<BackupRow | undefined> {
    const [row] = await this.db.select().from(backups).where(and(eq(backups.projectId, projectId), eq(backups.id, id)));
    return row;
  }

  async getForJob(id: string): Promise<BackupRow | undefined> {
    const [row] = await this.db.select().from(backups).where(eq(backups.id, id));
    return row;
  }

  async listOf(projectId: string, instanceId: string): Promise<BackupRow[]> {
    return this.db
      .select()
      .from(backups)
      .where(and(eq(backups.projectId, projectId), eq(backups.instanceId, instanceId)))
      .orderBy(desc(backups.createdAt), desc(backups.id));
  }

  /** Every backup of the instance, whatever its status (the scheduler's view). */
  async listOfInstance(instanceId: string): Promise<BackupRow[]> {
    return this.db.select().from(backups).where(eq(backups.instanceId, instanceId)).orderBy(asc(backups.createdAt));
  }

  /** The instance's succeeded bases, oldest first: what restores and retention work from. */
  async succeededOf(instanceId: string): Promise<BackupRow[]> {
    return this.db
      .select()
      .from(backups)
      .where(and(eq(backups.instanceId, instanceId), eq(backups.status, 'succeeded'), isNotNull(backups.endTime)))
      .orderBy(asc(backups.endTime));
  }

  async linkOperation(id: string, operationId: string): Promise<void> {
    await this.db.update(backups).set({ operationId }).where(eq(backups.id, id));
  }

  async markRunning(id: string): Promise<void> {
    await this.db.update(backups).set({ status: 'running', error: null }).where(and(eq(backups.id, id), inArray(backups.status, ['pending', 'running', 'failed'])));
  }

  async succeed(id: string, result: BackupResult): Promise<void> {
    await this.db.update(backups).set({ ...result, status: 'succeeded', error: null, finishedAt: new Date() }).where(eq(backups.id, id));
  }

  async fail(id: string, error: unknown): Promise<void> {
    await this.db.update(backups).set({ status: 'failed', error, finishedAt: new Date() }).where(and(eq(backups.id, id), inArray(backups.status, ['pending', 'running'])));
  }

  /** Asks for a backup to go; the worker's backup pass removes its objects and then the row. */
  async markDeleting(projectId: string, id: string): Promise<BackupRow | undefined> {
    const [row] = await this.db
      .update(backups)
      .set({ status: 'deleting' })
      .where(and(eq(backups.projectId, projectId), eq(backups.id, id), inArray(backups.status, ['succeeded', 'failed'])))
      .returning();
    return row;
  }

  /** Backups to remove: asked to go, or past their retention. */
  async dueForRemoval(now: Date): Promise<BackupRow[]> {
    return this.db
      .select()
      .from(backups)
      .where(sql`${backups.status} = 'deleting' OR (${backups.status} IN ('succeeded', 'failed') AND ${backups.expiresAt} <= ${now})`)
      .orderBy(asc(backups.createdAt));
  }

  async remove(id: string): Promise<void> {
    await this.db.delete(backups).where(eq(backups.id, id));
  }

  /** The instance's newest automatic backup that did not fail (the scheduler's "done today?"). */
  async newestAutomatic(instanceId: string): Promise<BackupRow | undefined> {
    const [row] = await this.db
      .select()
      .from(backups)
      .where(and(eq(backups.instanceId, instanceId), eq(backups.kind, 'automatic'), inArray(backups.status, ['pending', 'running', 'succeeded'])))
      .orderBy(desc(backups.createdAt))
      .limit(1);
    return row;
  }

  /**
   * The points an instance can be restored to, to the second: from its oldest succeeded base's
   * consistent point to the newest record its archive holds (or its newest base's point, when
   * the archive holds nothing newer). Null ends: nothing to restore from yet. One rule for the
   * API (what it shows and accepts) and the worker (what it restores).
   */
  async restoreWindow(instanceId: string): Promise<{ earliest: Date | null; latest: Date | null }> {
    const bases = await this.succeededOf(instanceId);
    if (bases.length === 0) return { earliest: null, latest: null };
    const newestBase = bases[bases.length - 1]!.endTime!;
    const archived = archivedThrough(await this.getArchive(instanceId));
    const latest = archived && archived > newestBase ? archived : newestBase;
    // To the second: a restore stops at a whole second, so the window's ends are whole seconds inside it.
    const ceil = (at: Date) => new Date(Math.ceil(at.getTime() / 1000) * 1000);
    const floor = (at: Date) => new Date(Math.floor(at.getTime() / 1000) * 1000);
    const window = { earliest: ceil(bases[0]!.endTime!), latest: floor(latest) };
    // One base and no whole second after it yet: restorable from the backup, not to a point.
    return window.latest < window.earliest ? { earliest: null, latest: null } : window;
  }

  /** Succeeded bases whose consistent point is at or before `at`, newest first (a restore's starting base). */
  async basesBefore(instanceId: string, at: Date): Promise<BackupRow[]> {
    return this.db
      .select()
      .from(backups)
      .where(and(eq(backups.instanceId, instanceId), eq(backups.status, 'succeeded'), lte(backups.endTime, at)))
      .orderBy(desc(backups.endTime));
  }
}
