// A delete's final backup (issue 44, on by default as Memorystore keeps one): a base of the
// instance as it was when deleted, kept for its retention and then removed with the rest. One
// that cannot be taken does not keep the instance from going: the archive up to its last
// stored second stays for the retention period too, and the failure is on the backup and in
// the operation's events.
import type { InstanceRow } from '@basalt/db';
import type { JobContext } from '../context.js';
import type { OperationRun } from '../operation.js';
import { faultOf } from '../errors.js';
import { backupStoreOf } from './backup-store.js';
import { takeBase } from './take-base.js';

const DAY_MS = 86_400_000;

export async function finalBackup(ctx: JobContext, run: OperationRun<'final_backup'>, instance: InstanceRow): Promise<void> {
  if (!backupStoreOf(ctx) || instance.backupRetentionDays <= 0) return;
  if (!instance.nodes.some((node) => node.role === 'primary' && node.status === 'running')) {
    await run.event('notice', null, 'no running primary: no final backup');
    return;
  }
  const backups = ctx.repo.backups();
  // A retried delete takes its final backup once.
  const earlier = (await backups.listOfInstance(instance.id)).find((b) => b.kind === 'final' && b.operationId === run.operationId);
  if (earlier?.status === 'succeeded') return;
  const row =
    earlier ??
    (await backups.insert({
      projectId: instance.projectId,
      instanceId: instance.id,
      kind: 'final',
      status: 'pending',
      operationId: run.operationId,
      expiresAt: new Date(Date.now() + instance.backupRetentionDays * DAY_MS),
    }));
  try {
    const taken = await run.step('final_backup', () => takeBase(ctx, instance, row, (_phase, work) => work()));
    await run.event('backup', 'final_backup', `final backup ${row.id}: ${taken.segments} segments at ${new Date(taken.endTimeMs).toISOString()}, kept ${instance.backupRetentionDays} days`);
  } catch (error) {
    await backups.fail(row.id, faultOf('final_backup', error));
    await run.event('notice', 'final_backup', `the final backup failed (${(error as Error).message}); the archive is kept ${instance.backupRetentionDays} days`);
  }
}
