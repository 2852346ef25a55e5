// rdb_export: an RDB file of a succeeded backup (backup/rdb-export.ts), each phase a step.
// It runs in the operation frame out of turn (operation-kinds.ts): the frame only loads the
// instance row, which a deleted instance keeps, so a deleted instance's backups export too;
// the kind owns no status, so the instance is never written.
import type { RdbExportJob } from '@basalt/db';
import type { JobContext } from '../context.js';
import { runOperation, type Outcome } from './run-operation.js';
import { StepError, faultOf } from '../errors.js';
import { exportRdb } from '../backup/rdb-export.js';

export function rdbExportJob(ctx: JobContext, payload: RdbExportJob): Promise<Outcome> {
  const files = ctx.repo.rdbFiles();
  let failure: unknown;
  return runOperation(ctx, payload, {
    kind: 'rdb_export',
    settle: async (outcome) => {
      if (outcome === 'failed') await files.exportFailed(payload.export_id, faultOf('rdb_export', failure));
    },
    work: async ({ instance, run }) => {
      try {
        const row = await files.getExportForJob(payload.export_id);
        if (!row) throw new StepError('load', `export ${payload.export_id} does not exist`);
        if (row.status === 'succeeded') return;
        await files.markExportRunning(row.id);
        const made = await exportRdb(ctx, run, instance, row);
        await files.exportSucceeded(row.id, made);
      } catch (error) {
        failure = error;
        throw error;
      }
    },
  });
}
