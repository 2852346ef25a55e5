// An instance whose log archive does not keep up is `degraded` (issue 44): what a lost node
// would take with it is no longer bounded by the seal interval, and a restore to its latest
// points would come up short.
import { archiveLagSeconds, type InstanceRow } from '@basalt/db';
import type { JobContext } from '../context.js';
import { backupStoreOf } from './backup-store.js';

/** Lag past which the instance is degraded: a minute of passes that did not catch up. */
export const ARCHIVE_LAG_DEGRADED_S = 60;

/** Why the instance's archive makes it degraded, or null. `runningSinceMs`: grace for its first pass. */
export async function archiveLagReason(ctx: JobContext, instance: InstanceRow, runningSinceMs: number, now = Date.now()): Promise<string | null> {
  if (!backupStoreOf(ctx) || instance.backupRetentionDays <= 0 || !ctx.engineFeatures.has('archive')) return null;
  const archive = await ctx.repo.backups().getArchive(instance.id);
  const lag = archiveLagSeconds(archive, new Date(now)) ?? Math.round((now - runningSinceMs) / 1000);
  if (lag <= ARCHIVE_LAG_DEGRADED_S) return null;
  return `the log archive is ${lag} s behind${archive?.lastError ? `: ${archive.lastError}` : ''}`;
}
