// The continuous log archive (issue 44): every pass (half the engine's seal interval), each
// live instance's primary is asked which segments it has; a sealed segment not yet stored is
// stored whole and then marked archived on the node (only then may its compaction remove it),
// and the active segment's durable tail is stored as a piece, so what a lost node takes with
// it is bounded by the seal interval plus one pass. An instance that keeps no backups
// (backup_retention_days 0) has its sealed segments marked archived without storing them, so
// its disk is not held by an archive no one keeps.
//
// One worker archives (the `basalt-archiver` lease, as the monitors watch); an instance's pass
// holds its archive lease, which a backup job takes too. After a failover the archive follows
// the new primary on a new timeline: the old timeline's segments stay as they were.
import { archivedThrough, type InstanceRow } from '@basalt/db';
import type { JobContext } from '../context.js';
import { LeasedRounds } from '../leased-rounds.js';
import { archiveLeaseKey } from './archive-lease.js';
import { backupStoreOf } from './backup-store.js';
import { instanceArchive } from './data-key.js';
import { EngineArchive } from './engine-archive.js';
import type { ObjectStore } from './object-store.js';
import { storeActiveTail, storedTailEnd, storeSealedSegment, type ArchiveTarget } from './segment-store.js';

/** Statuses in which an instance's engine runs and keeps writing its log. */
export const ARCHIVED_STATUSES = new Set<InstanceRow['status']>(['running', 'modifying', 'restarting', 'error']);

export class Archiver {
  private readonly rounds: LeasedRounds;
  /** Where each active segment's stored tail ends, by instance, timeline and segment. */
  private readonly tails = new Map<string, number>();

  constructor(
    private readonly ctx: JobContext,
    intervalMs: number,
  ) {
    this.rounds = new LeasedRounds(ctx, 'archiver', 'every instance\'s log', 'basalt-archiver', intervalMs, () => this.round());
  }

  start(): void {
    if (backupStoreOf(this.ctx)) this.rounds.start();
  }

  stop(): Promise<void> {
    return this.rounds.stop();
  }

  private async round(): Promise<void> {
    const store = backupStoreOf(this.ctx);
    if (!store) return;
    const instances = (await this.ctx.repo.listInstancesIn([...ARCHIVED_STATUSES])).filter((instance) => instance.nodes.length > 0);
    for (const instance of instances) await this.pass(store, instance);
  }

  /** One pass over one instance; its error is recorded on its archive, not thrown. */
  async pass(store: ObjectStore, instance: InstanceRow): Promise<void> {
    const lease = await this.ctx.leases.tryLease(archiveLeaseKey(instance.id));
    if (!lease) return;
    const backups = this.ctx.repo.backups();
    try {
      const primary = instance.nodes.find((node) => node.role === 'primary' && node.status === 'running');
      if (!primary) return;
      let archive = await instanceArchive(this.ctx, instance);
      if (archive.sourceNode !== primary.name) {
        // A failover made another node the primary: its log is another log.
        const timeline = archive.sourceNode ? archive.timeline + 1 : archive.timeline;
        // The ended timeline reaches where this archive last caught up with its primary.
        const through = archivedThrough(archive);
        const endedTimelines = archive.sourceNode && through ? [...archive.endedTimelines, { timeline: archive.timeline, endedAt: through.toISOString() }] : archive.endedTimelines;
        await backups.setArchiveProgress(instance.id, { sourceNode: primary.name, timeline, endedTimelines });
        if (archive.sourceNode) this.ctx.log(`archiver: ${instance.id} archives ${primary.name} on timeline ${timeline} (was ${archive.sourceNode})`);
        archive = { ...archive, sourceNode: primary.name, timeline, endedTimelines };
      }
      const target: ArchiveTarget = { store, backups, instanceId: instance.id, timeline: archive.timeline };
      const engine = await EngineArchive.open(this.ctx, instance, primary);
      try {
        const notReady = await engine.notReady();
        if (notReady) {
          await backups.setArchiveProgress(instance.id, { lastError: notReady });
          return;
        }
        const keep = instance.backupRetentionDays > 0;
        // What the node had made durable when asked: the archive is caught up to this moment.
        const listedAt = new Date();
        const segments = await engine.segments();
        const stored = new Set((await backups.segmentsOf(instance.id, archive.timeline)).map((row) => row.segment));
        for (const segment of segments) {
          if (!segment.sealed) continue;
          if (keep && !stored.has(segment.id)) await storeSealedSegment(target, engine, segment);
          if (!segment.archived) await engine.markArchived(segment.id);
          this.tails.delete(`${instance.id}/${archive.timeline}/${segment.id}`);
        }
        const active = segments.find((segment) => !segment.sealed);
        if (keep && active) {
          const key = `${instance.id}/${archive.timeline}/${active.id}`;
          const from = this.tails.get(key) ?? (await storedTailEnd(target, active.id));
          this.tails.set(key, await storeActiveTail(target, engine, active, from));
        }
        const newest = [...segments].reverse().find((segment) => segment.bytes > 0 && segment.lastTimeMs > 0);
        await backups.setArchiveProgress(instance.id, {
          ...(keep && newest ? { archivedTime: new Date(newest.lastTimeMs), archivedLsn: newest.lastLsn } : {}),
          checkedAt: listedAt,
          lastError: null,
        });
      } finally {
        engine.close();
      }
    } catch (error) {
      const message = (error as Error).message;
      // checkedAt stays when the archive last caught up: the lag grows until it does again.
      await backups.setArchiveProgress(instance.id, { lastError: message }).catch(() => {});
      this.ctx.log(`archiver: ${instance.id}: ${message}`);
    } finally {
      await lease.release();
    }
  }
}
