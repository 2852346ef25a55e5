// What a deploy tells the engine role about backups (infra/ansible/README.md): the log archive
// on, its seal interval, and the instance's data key (the engine seals what BACKUP READ
// returns with it). Nothing when this worker keeps no backups (no object store configured):
// an archive no one empties would hold every segment on the node's disk; nor for an engine
// binary without the archive (it refuses the role's [backup] table).
import type { InstanceRow } from '@basalt/db';
import type { JobContext } from '../context.js';
import { backupStoreOf } from './backup-store.js';
import { dataKeyBase64, instanceArchive } from './data-key.js';

/** The engine's default: what it has appended is durable, so readable, within this. */
export const ARCHIVE_SEAL_INTERVAL_MS = 1_000;
/**
 * How often the archiver stores what became readable: half the seal interval, so what a lost
 * node takes with it stays within about one seal interval (a pass and what was sealed since).
 * Under `fsync always` every acknowledged write is readable at once.
 */
export const ARCHIVE_PASS_INTERVAL_MS = ARCHIVE_SEAL_INTERVAL_MS / 2;

export async function backupVars(ctx: JobContext, instance: Pick<InstanceRow, 'id' | 'projectId'>): Promise<Record<string, unknown>> {
  if (!backupStoreOf(ctx) || !ctx.engineFeatures.has('archive')) return {};
  const archive = await instanceArchive(ctx, instance);
  return { engine_archive: true, engine_archive_seal_interval_ms: ARCHIVE_SEAL_INTERVAL_MS, engine_backup_key: dataKeyBase64(ctx, archive) };
}
