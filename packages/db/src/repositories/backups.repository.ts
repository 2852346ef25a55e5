// Backups and the log archive (issue 44). The API writes what a person asks (a backup asked
// for, one asked to go); the worker's backup job and archiver alone write what they found
// (segments stored, a backup's range and size, the archive's progress).
import { and, asc, desc, eq, inArray, isNotNull, lte, sql } from 'drizzle-orm';
import type { Db } from '../client.js';
import { archivedSegments, backups, instanceArchives, instances } from '../schema.js';

export type BackupRow = typeof backups.$inferSelect;
export type NewBackup = typeof backups.$inferInsert;
export type InstanceArchiveRow = typeof instanceArchives.$inferSelect;
export type ArchivedSegmentRow = typeof archivedSegments.$inferSelect;
export type NewArchivedSegment = typeof archivedSegments.$inferInsert;
export type ArchiveProgress = Partial<Pick<InstanceArchiveRow, 'archivedTime' | 'archivedLsn' | 'checkedAt' | 'lastError' | 'sourceNode' | 'timeline' | 'endedTimelines'>>;
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

/** A timeline's restorable span, whole seconds at both ends. */
export interface TimelineSpan {
  timeline: number;
  earliest: Date;
  latest: Date;
}

/** Whole seconds, `from` to `to` inclusive, that no restore reaches: after a timeline ended, before the next one's first base. */
export interface RestoreGap {
  from: Date;
  to: Date;
  /** The timeline a failover ended, and the one whose first base ends the gap. */
  endedTimeline: number;
  nextTimeline: number;
}

export interface RestoreWindow {
  /** Null ends: nothing to restore to a point yet. */
  earliest: Date | null;
  latest: Date | null;
  timelines: TimelineSpan[];
  gaps: RestoreGap[];
}

const ceilSecond = (at: Date) => new Date(Math.ceil(at.getTime() / 1000) * 1000);
const floorSecond = (at: Date) => new Date(Math.floor(at.getTime() / 1000) * 1000);
const newest = (times: (Date | null | undefined)[]) => {
  const known = times.filter((t): t is Date => t instanceof Date);
  return known.length ? new Date(Math.max(...known.map((t) => t.getTime()))) : null;
};

/**
 * The restore window from an instance's succeeded bases, its archive and the newest record
 * archived on each timeline (BackupsRepository.restoreWindow's rule, pure).
 */
export function restoreWindowOf(
  bases: Pick<BackupRow, 'timeline' | 'endTime'>[],
  archive: Pick<InstanceArchiveRow, 'timeline' | 'archivedTime' | 'checkedAt' | 'endedTimelines'> | undefined,
  archivedEnds: Map<number, Date | null>,
): RestoreWindow {
  const byTimeline = new Map<number, Date[]>();
  for (const base of bases) {
    if (!base.endTime) continue;
    const timeline = base.timeline ?? 1;
    byTimeline.set(timeline, [...(byTimeline.get(timeline) ?? []), base.endTime]);
  }
  const current = archive?.timeline ?? 1;
  const timelines: TimelineSpan[] = [];
  for (const timeline of [...byTimeline.keys()].sort((a, b) => a - b)) {
    const ends = byTimeline.get(timeline)!;
    const first = new Date(Math.min(...ends.map((t) => t.getTime())));
    // A timeline a failover ended reaches where its archive had caught up when it moved on (or
    // what its stored segments hold); the current one what the archive has caught up to.
    const endedAt = archive?.endedTimelines?.find((ended) => ended.timeline === timeline)?.endedAt;
    const last = newest([...ends, ...(timeline < current ? [archivedEnds.get(timeline), endedAt ? new Date(endedAt) : null] : [archivedThrough(archive)])])!;
    const span = { timeline, earliest: ceilSecond(first), latest: floorSecond(last) };
    // One base and no whole second after it yet: restorable from the backup, not to a point.
    if (span.latest >= span.earliest) timelines.push(span);
  }
  const gaps: RestoreGap[] = [];
  for (let i = 1; i < timelines.length; i++) {
    const [before, after] = [timelines[i - 1]!, timelines[i]!];
    const from = new Date(before.latest.getTime() + 1000);
    const to = new Date(after.earliest.getTime() - 1000);
    if (from <= to) gaps.push({ from, to, endedTimeline: before.timeline, nextTimeline: after.timeline });
  }
  return { earliest: timelines[0]?.earliest ?? null, latest: timelines[timelines.length - 1]?.latest ?? null, timelines, gaps };
}

/** Whether a restore reaches `at` exactly: inside one timeline's span. */
export function windowCovers(window: Pick<RestoreWindow, 'timelines'>, at: Date): boolean {
  return window.timelines.some((span) => at >= span.earliest && at <= span.latest);
}

/** The gap `at` falls in, if any. */
export function gapAt(window: Pick<RestoreWindow, 'gaps'>, at: Date): RestoreGap | undefined {
  return window.gaps.find((gap) => at >= gap.from && at <= gap.to);
}

const isoSecond = (at: Date) => at.toISOString().replace(/\.\d{3}Z$/, 'Z');

/** Why a restore cannot reach `at`, a point in a gap: one message for the API's refusal and the worker's. */
export function gapRefusal(gap: RestoreGap, at: Date): string {
  return (
    `${isoSecond(at)} falls in the gap from ${isoSecond(gap.from)} to ${isoSecond(gap.to)}: timeline ${gap.endedTimeline} ended ` +
    `(a failover) before it and timeline ${gap.nextTimeline}'s first backup is after it, so no restore reaches it exactly; ` +
    `choose a point up to ${isoSecond(new Date(gap.from.getTime() - 1000))} or from ${isoSecond(new Date(gap.to.getTime() + 1000))}`
  );
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
   * The points an instance can be restored to, to the second, timeline by timeline: each
   * timeline with a succeeded base covers from its oldest base's consistent point to the newest
   * record its archive holds. A timeline a failover ended stops where its archive had caught up
   * with its primary when the archive moved on (or its newest stored segment's last record, or
   * its newest base's point, for one ended before that was recorded); the
   * current one at the newest record the archive holds or the moment the archiver last caught
   * up (or its newest base's point, when the archive holds nothing newer). Between the end of
   * one timeline and the first base of the next lies a gap: seconds no restore reaches exactly.
   * One rule for the API (what it shows and accepts) and the worker (what it restores).
   */
  async restoreWindow(instanceId: string): Promise<RestoreWindow> {
    const [bases, archive, archivedEnds] = await Promise.all([
      this.succeededOf(instanceId),
      this.getArchive(instanceId),
      this.db
        .select({ timeline: archivedSegments.timeline, lastTime: sql<string | null>`max(${archivedSegments.lastTime})` })
        .from(archivedSegments)
        .where(eq(archivedSegments.instanceId, instanceId))
        .groupBy(archivedSegments.timeline),
    ]);
    return restoreWindowOf(bases, archive, new Map(archivedEnds.map((row) => [row.timeline, row.lastTime ? new Date(row.lastTime) : null])));
  }

  /**
   * For each instance in `statuses` that keeps backups: when its archive last caught up with its
   * node and when its newest succeeded backup finished (the control plane's backup metrics).
   */
  async freshnessOf(statuses: (typeof instances.$inferSelect)['status'][]): Promise<{ instanceId: string; projectId: string; checkedAt: Date | null; lastBackupAt: Date | null }[]> {
    if (statuses.length === 0) return [];
    const rows = await this.db
      .select({
        instanceId: instances.id,
        projectId: instances.projectId,
        checkedAt: instanceArchives.checkedAt,
        lastBackupAt: sql<string | null>`max(${backups.finishedAt})`,
      })
      .from(instances)
      .leftJoin(instanceArchives, eq(instanceArchives.instanceId, instances.id))
      .leftJoin(backups, and(eq(backups.instanceId, instances.id), eq(backups.status, 'succeeded')))
      .where(and(inArray(instances.status, statuses), sql`${instances.backupRetentionDays} > 0`))
      .groupBy(instances.id, instances.projectId, instanceArchives.checkedAt);
    return rows.map((row) => ({ ...row, lastBackupAt: row.lastBackupAt ? new Date(row.lastBackupAt) : null }));
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
