// The restore step of a create (issue 44): the source's segments fetched and checked into a
// directory of this operation's own (restore.ts), then the engine role's restore playbook puts
// them in place of the new instance's empty log on its primary first and then on each replica
// (whose log then holds no replication position: it copies from the restored primary), and
// the engine says what it recovered to. An uploaded RDB file is read into segments the same
// way first (rdb-import.ts). The instance is `running` only after that.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { InstanceRow, RegionRow, RestoreSource } from '@basalt/db';
import type { JobContext } from '../context.js';
import type { OperationRun } from '../operation.js';
import type { Node } from '../stack.js';
import { StepError } from '../errors.js';
import { deployEngine } from '../engine-deploy.js';
import type { PlaybookResult } from '../ansible/ansible.js';
import { requireBackupStore } from './backup-store.js';
import { fetchRestore, planRestore } from './restore.js';
import { fetchRdbImport } from './rdb-import.js';

const STEP = 'restore_data';
/** The restore playbook's task (infra/ansible/roles/engine/tasks/restore.yml); Ansible prefixes `engine : `. */
const RESTORE_TASK = "Restore the engine's data from a backup";

export interface Recovered {
  recovery_target: string;
  recovery_stopped_lsn?: number | string;
  recovery_stopped_time_ms?: number | string;
}

function recoveredOf(result: PlaybookResult): Recovered[] {
  return result.events
    .filter((e) => e.event === 'runner_on_ok' && (e.task === RESTORE_TASK || e.task?.endsWith(` : ${RESTORE_TASK}`)))
    .map((e) => (e.result as { restore?: Recovered } | undefined)?.restore)
    .filter((r): r is Recovered => !!r);
}

export async function restoreData(ctx: JobContext, run: OperationRun<'restore_data'>, instance: InstanceRow, region: RegionRow, nodes: Node[], source: RestoreSource): Promise<void> {
  const store = requireBackupStore(ctx, STEP);
  const dir = path.join(ctx.config.runsDir, instance.id, run.operationId, 'restore');
  const plan = await run.step(STEP, async () => {
    if ('rdb_import_id' in source) {
      const imported = await fetchRdbImport(ctx, store, source.rdb_import_id, dir);
      await run.event('restore', STEP, `RDB import ${imported.rdb_import}: ${imported.imported}`);
      return imported;
    }
    const plan = await planRestore(ctx, store, source);
    const { bytes } = await fetchRestore(ctx, store, plan, dir);
    const to = 'lsn' in plan.target ? `the backup's end (LSN ${plan.target.lsn})` : new Date(plan.target.timeMs).toISOString();
    await run.event('restore', STEP, `fetched ${plan.segments.length} segment(s), ${bytes} bytes, of ${plan.sourceInstanceId} from backup ${plan.backup.id}; restoring to ${to}`);
    return { backup: plan.backup.id, target: plan.target };
  });
  try {
    const primary = nodes.find((node) => node.role === 'primary');
    if (!primary) throw new StepError(STEP, 'the new instance has no primary to restore into');
    const inputs = { engine_restore_src: dir, engine_restore_id: run.operationId };
    for (const group of [[primary], nodes.filter((node) => node !== primary)]) {
      if (group.length === 0) continue;
      const result = await deployEngine(ctx, run, instance, region, nodes, 'restore.yml', group.map((node) => node.name), inputs);
      const recovered = recoveredOf(result);
      if (recovered.length !== group.length || recovered.some((r) => r.recovery_target !== 'applied')) {
        throw new StepError(STEP, `the engine did not say it recovered to the target on ${group.map((n) => n.name).join(', ')}: ${JSON.stringify(recovered)}`);
      }
      if (group[0] === primary) {
        const at = Number(recovered[0]!.recovery_stopped_time_ms);
        await run.event('restore', STEP, `${primary.name} recovered to LSN ${recovered[0]!.recovery_stopped_lsn} (${at > 0 ? new Date(at).toISOString() : 'time unknown'})`, { plan });
      }
    }
  } finally {
    // The decrypted log leaves this host's disk whatever happened (an RDB's work dir too).
    await fs.rm(dir, { recursive: true, force: true });
    await fs.rm(`${dir}.rdb`, { recursive: true, force: true });
  }
}
