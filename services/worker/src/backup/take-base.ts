// Taking a base backup (issue 44), for the backup job and for a delete's final backup: the
// primary makes everything appended durable and names the segments that rebuild its data at
// that point (BACKUP BASE, no pause a client sees); each one the archive has not stored yet is
// stored (a sealed one whole, the active one's durable prefix as a piece); a manifest naming
// them, sealed with the instance's data key, makes the backup. Segments are shared with the
// archive and with earlier bases, so a base uploads only what changed since. Under the
// instance's archive lease, so the archiver neither stores nor marks a segment meanwhile.
import type { BackupRow, InstanceRow } from '@basalt/db';
import type { JobContext } from '../context.js';
import { StepError } from '../errors.js';
import { takeArchiveLease } from './archive-lease.js';
import { requireBackupStore } from './backup-store.js';
import { dataKey, instanceArchive } from './data-key.js';
import { EngineArchive, type EngineBase } from './engine-archive.js';
import { manifestKey } from './archive-objects.js';
import { seal } from './sealed-object.js';
import { storeActiveTail, storedTailEnd, storeSealedSegment, type ArchiveTarget } from './segment-store.js';
import type { BaseManifest } from './manifest.js';

/** The phases of a base, each a step of the backup operation (a delete runs them in one). */
export type BasePhase = 'seal_base' | 'store_segments' | 'write_manifest';
export type PhaseRunner = <T>(phase: BasePhase, work: () => Promise<T>) => Promise<T>;

/** A base whose segment compaction removed before it was read (archive off) is taken again. */
const BASE_ATTEMPTS = 3;

export interface TakenBase {
  segments: number;
  uploadedBytes: number;
  endLsn: number;
  endTimeMs: number;
}

export async function takeBase(ctx: JobContext, instance: InstanceRow, row: BackupRow, phase: PhaseRunner): Promise<TakenBase> {
  const backups = ctx.repo.backups();
  await backups.markRunning(row.id);
  const store = requireBackupStore(ctx, 'seal_base');
  const primary = instance.nodes.find((node) => node.role === 'primary' && node.status === 'running');
  if (!primary) throw new StepError('seal_base', 'the instance has no running primary to take a base from');
  const lease = await takeArchiveLease(ctx, instance.id);
  if (!lease) throw new StepError('seal_base', 'the archiver did not let go of the instance within 60 s');
  try {
    const archive = await instanceArchive(ctx, instance);
    const target: ArchiveTarget = { store, backups, instanceId: instance.id, timeline: archive.timeline };
    const engine = await EngineArchive.open(ctx, instance, primary, { paced: true });
    try {
      const notReady = await engine.notReady();
      if (notReady) throw new StepError('seal_base', notReady);
      for (let attempt = 1; ; attempt++) {
        const base = await phase('seal_base', () => engine.base());
        try {
          const uploaded = await phase('store_segments', () => storeBase(target, engine, base));
          const key = manifestKey(instance.id, row.id);
          const manifest: BaseManifest = {
            format: 1,
            backup_id: row.id,
            instance_id: instance.id,
            timeline: archive.timeline,
            end_lsn: base.endLsn,
            end_time_ms: base.endTimeMs,
            segments: base.segments.map((s) => ({ id: s.id, bytes: s.bytes, sealed: s.sealed, first_lsn: s.firstLsn, last_lsn: s.lastLsn, first_time_ms: s.firstTimeMs, last_time_ms: s.lastTimeMs })),
          };
          await phase('write_manifest', async () => {
            await store.put(key, seal(dataKey(ctx, archive), key, Buffer.from(JSON.stringify(manifest))));
            await backups.succeed(row.id, {
              timeline: archive.timeline,
              endLsn: base.endLsn,
              endTime: new Date(base.endTimeMs),
              segments: base.segments.length,
              segmentIds: base.segments.map((s) => s.id),
              sizeBytes: base.segments.reduce((sum, s) => sum + s.bytes, 0),
              uploadedBytes: uploaded,
              manifestKey: key,
            });
          });
          return { segments: base.segments.length, uploadedBytes: uploaded, endLsn: base.endLsn, endTimeMs: base.endTimeMs };
        } catch (error) {
          if (attempt >= BASE_ATTEMPTS || !/no segment|unknown segment|not found/i.test((error as Error).message)) throw error;
          ctx.log(`[${row.id}] a segment of the base went before it was read (${(error as Error).message}); taking the base again`);
        }
      }
    } finally {
      engine.close();
    }
  } finally {
    await lease.release();
  }
}

/** Stores each segment of the base that is not stored yet; returns the bytes uploaded. */
async function storeBase(target: ArchiveTarget, engine: EngineArchive, base: EngineBase): Promise<number> {
  const stored = new Set((await target.backups.segmentsOf(target.instanceId, target.timeline)).map((row) => row.segment));
  let uploaded = 0;
  for (const segment of base.segments) {
    if (segment.sealed) {
      if (!stored.has(segment.id)) uploaded += await storeSealedSegment(target, engine, segment);
      continue;
    }
    const from = await storedTailEnd(target, segment.id);
    if (from < segment.bytes) uploaded += segment.bytes - from;
    await storeActiveTail(target, engine, segment, from);
  }
  return uploaded;
}
