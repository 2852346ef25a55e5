// backup: a base backup (issue 44). The primary makes everything appended durable and names
// the segments that rebuild its data at that point (BACKUP BASE, no pause a client sees); each
// one the archive has not stored yet is stored (a sealed one whole, the active one's durable
// prefix as a piece); a manifest naming them, sealed with the instance's data key, makes the
// backup. Segments are shared with the archive and with earlier bases, so a base uploads only
// what changed since. Under the instance's archive lease, so the archiver neither stores nor
// marks a segment meanwhile.
import type { BackupJob } from '@basalt/db';
import type { JobContext } from '../context.js';
import { runOperation, type Outcome } from './run-operation.js';
import { StepError, faultOf } from '../errors.js';
import { requireNodes } from './nodes.js';
import { takeArchiveLease } from '../backup/archive-lease.js';
import { requireBackupStore } from '../backup/backup-store.js';
import { dataKey, instanceArchive } from '../backup/data-key.js';
import { EngineArchive, type EngineBase } from '../backup/engine-archive.js';
import { manifestKey } from '../backup/archive-objects.js';
import { seal } from '../backup/sealed-object.js';
import { storeActiveTail, storedTailEnd, storeSealedSegment, type ArchiveTarget } from '../backup/segment-store.js';
import type { BaseManifest } from '../backup/manifest.js';

/** A base whose segment compaction removed before it was read (archive off) is taken again. */
const BASE_ATTEMPTS = 3;

export function backup(ctx: JobContext, payload: BackupJob): Promise<Outcome> {
  const backups = ctx.repo.backups();
  let failure: unknown;
  return runOperation(ctx, payload, {
    kind: 'backup',
    settle: async (outcome) => {
      if (outcome === 'failed') await backups.fail(payload.backup_id, faultOf('backup', failure));
    },
    work: async ({ instance, run }) => {
      try {
        const row = await backups.getForJob(payload.backup_id);
        if (!row) throw new StepError('load', `backup ${payload.backup_id} does not exist`);
        if (row.status === 'succeeded') return;
        await backups.markRunning(row.id);
        const store = requireBackupStore(ctx, 'seal_base');
        const primary = requireNodes(instance, 'load').find((node) => node.role === 'primary' && node.status === 'running');
        if (!primary) throw new StepError('seal_base', 'the instance has no running primary to take a base from');
        const lease = await takeArchiveLease(ctx, instance.id);
        if (!lease) throw new StepError('seal_base', 'the archiver did not let go of the instance within 60 s');
        try {
          const archive = await instanceArchive(ctx, instance);
          const target: ArchiveTarget = { store, backups, instanceId: instance.id, timeline: archive.timeline };
          const engine = await EngineArchive.open(ctx, instance, primary);
          try {
            const notReady = await engine.notReady();
            if (notReady) throw new StepError('seal_base', notReady);
            for (let attempt = 1; ; attempt++) {
              const base = await run.step('seal_base', () => engine.base());
              try {
                const uploaded = await run.step('store_segments', () => storeBase(target, engine, base));
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
                await run.step('write_manifest', async () => {
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
                await run.event('backup', 'write_manifest', `base of ${base.segments.length} segments at LSN ${base.endLsn} (${new Date(base.endTimeMs).toISOString()}); ${uploaded} bytes uploaded, the rest already stored`);
                return;
              } catch (error) {
                if (attempt >= BASE_ATTEMPTS || !/no segment|unknown segment|not found/i.test((error as Error).message)) throw error;
                await run.event('backup', 'store_segments', `a segment of the base went before it was read (${(error as Error).message}); taking the base again`);
              }
            }
          } finally {
            engine.close();
          }
        } finally {
          await lease.release();
        }
      } catch (error) {
        failure = error;
        throw error;
      }
    },
  });
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
