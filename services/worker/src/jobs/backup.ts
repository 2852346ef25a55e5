// backup: a base backup asked for (the API's manual ones, the scheduler's automatic ones);
// backup/take-base.ts takes it, each phase a step of the operation.
import type { BackupJob } from '@basalt/db';
import type { JobContext } from '../context.js';
import { runOperation, type Outcome } from './run-operation.js';
import { StepError, faultOf } from '../errors.js';
import { takeBase } from '../backup/take-base.js';

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
        const taken = await takeBase(ctx, instance, row, (phase, work) => run.step(phase, work));
        await run.event('backup', 'write_manifest', `base of ${taken.segments} segments at LSN ${taken.endLsn} (${new Date(taken.endTimeMs).toISOString()}); ${taken.uploadedBytes} bytes uploaded, the rest already stored`);
      } catch (error) {
        failure = error;
        throw error;
      }
    },
  });
}
