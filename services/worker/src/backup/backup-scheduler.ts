// The one backup scheduler of the control plane (issue 44), in whichever worker holds its
// lease, every minute:
// - each live instance that keeps backups (backup_retention_days > 0) gets its daily automatic
//   backup once its window (UTC) comes, kept for its retention (a backup operation through the
//   shared queue: any worker runs it);
// - backups past their retention, and those asked to go, are removed: their manifest, then
//   every segment object no kept base needs any more (a kept base needs its own segments and,
//   for the points after it, every segment archived after it), then the row;
// - a failover moved the archive to a new timeline: the new timeline gets a base at once, so
//   its points can be restored without waiting for the window;
// - RDB exports and uploads past their time are removed (rdb-expiry.ts).
import type pg from 'pg';
import type PgBoss from 'pg-boss';
import { startBackup, type BackupRow, type InstanceRow } from '@basalt/db';
import { inBackupWindow, parseBackupWindow } from '@basalt/api-client/rules';
import type { JobContext } from '../context.js';
import { LeasedRounds } from '../leased-rounds.js';
import { backupStoreOf } from './backup-store.js';
import { partPrefix, segmentKey } from './archive-objects.js';
import type { ObjectStore } from './object-store.js';
import { removeExpiredRdbFiles } from './rdb-expiry.js';

const DAY_MS = 86_400_000;
/** An automatic backup made less than this ago counts as today's (a window is at most a day). */
const AUTOMATIC_EVERY_MS = 20 * 3_600_000;
const LIVE = new Set<InstanceRow['status']>(['running', 'error']);

export class BackupScheduler {
  private readonly rounds: LeasedRounds;

  constructor(
    private readonly ctx: JobContext,
    private readonly pool: pg.Pool,
    private readonly boss: PgBoss,
    intervalMs: number,
  ) {
    this.rounds = new LeasedRounds(ctx, 'backup scheduler', 'backup windows and retention', 'basalt-backup-scheduler', intervalMs, () => this.round());
  }

  start(): void {
    if (backupStoreOf(this.ctx)) this.rounds.start();
  }

  stop(): Promise<void> {
    return this.rounds.stop();
  }

  async round(now = new Date()): Promise<void> {
    const store = backupStoreOf(this.ctx);
    if (!store) return;
    for (const instance of await this.ctx.repo.listInstancesIn([...LIVE])) {
      await this.schedule(instance, now).catch((error) => this.ctx.log(`backup scheduler: ${instance.id}: ${(error as Error).message}`));
    }
    await this.removeDue(store, now);
    await removeExpiredRdbFiles(this.ctx, store, now);
  }

  private async schedule(instance: InstanceRow, now: Date): Promise<void> {
    if (instance.backupRetentionDays <= 0) return;
    const backups = this.ctx.repo.backups();
    const archive = await backups.getArchive(instance.id);
    const newest = await backups.newestAutomatic(instance.id);
    const window = parseBackupWindow(instance.backupWindow);
    const due = 'error' in window ? false : inBackupWindow(window, now) && (!newest || now.getTime() - newest.createdAt.getTime() >= AUTOMATIC_EVERY_MS);
    // A timeline no base is on yet (a failover moved the archive): one now, not at the window.
    const timelineWithoutBase = archive !== undefined && archive.timeline > 1 && !(await backups.succeededOf(instance.id)).some((b) => b.timeline === archive.timeline) && !(await this.pendingOf(instance.id));
    if (!due && !timelineWithoutBase) return;
    const expiresAt = new Date(now.getTime() + instance.backupRetentionDays * DAY_MS);
    const { backupId } = await startBackup(this.pool, this.boss, { instance, kind: 'automatic', userId: null, expiresAt });
    this.ctx.log(`backup scheduler: ${instance.id}: automatic backup ${backupId}${due ? '' : ` (timeline ${archive!.timeline} has no base)`}`);
  }

  private async pendingOf(instanceId: string): Promise<boolean> {
    return (await this.ctx.repo.backups().listOfInstance(instanceId)).some((b) => b.status === 'pending' || b.status === 'running');
  }

  /** Removes due backups, then the segments no kept base needs. */
  async removeDue(store: ObjectStore, now: Date): Promise<void> {
    const backups = this.ctx.repo.backups();
    const due = await backups.dueForRemoval(now);
    const touched = new Set<string>();
    for (const backup of due) {
      if (backup.manifestKey) await store.deleteMany([backup.manifestKey]);
      await backups.remove(backup.id);
      touched.add(backup.instanceId);
      this.ctx.log(`backup scheduler: removed ${backup.kind} backup ${backup.id} of ${backup.instanceId}${backup.status === 'deleting' ? ' (asked)' : ' (retention)'}`);
    }
    for (const instanceId of touched) await this.removeUnneededSegments(store, instanceId);
  }

  /**
   * Segments stay while a kept base names them or comes before them on their timeline (the
   * archive after a base is what restores to its later points); everything else goes.
   */
  async removeUnneededSegments(store: ObjectStore, instanceId: string): Promise<void> {
    const backups = this.ctx.repo.backups();
    const kept: BackupRow[] = (await backups.listOfInstance(instanceId)).filter((b) => b.status !== 'deleting');
    const archive = await backups.getArchive(instanceId);
    for (let timeline = 1; timeline <= (archive?.timeline ?? 1); timeline++) {
      const bases = kept.filter((b) => b.timeline === timeline && b.status === 'succeeded');
      const named = new Set(bases.flatMap((b) => b.segmentIds));
      // The archive after the oldest kept base of the timeline; the current timeline keeps its
      // archive even without a base (the next base will want it, and it is being written).
      const from = bases.length ? Math.min(...bases.map((b) => Math.max(...b.segmentIds, 0))) : timeline === archive?.timeline ? 0 : Infinity;
      const unneeded = (await backups.segmentsOf(instanceId, timeline)).filter((s) => !named.has(s.segment) && s.segment < from).map((s) => s.segment);
      if (unneeded.length === 0) continue;
      const keys = unneeded.map((segment) => segmentKey(instanceId, timeline, segment));
      for (const segment of unneeded) for await (const piece of store.list(partPrefix(instanceId, timeline, segment))) keys.push(piece.key);
      await store.deleteMany(keys);
      await backups.removeSegments(instanceId, timeline, unneeded);
      this.ctx.log(`backup scheduler: ${instanceId}: removed ${unneeded.length} segment(s) of timeline ${timeline} no kept backup needs`);
    }
  }
}
