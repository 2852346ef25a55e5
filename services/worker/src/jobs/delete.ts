// delete: `terraform destroy` removes the VMs and their state, the workspace goes, and
// the instance becomes `deleted` and gives its addresses back to the region's pool.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { DeleteJob } from '@basalt/db';
import type { JobContext } from '../context.js';
import { runOperation, type Outcome } from './run-operation.js';
import { finalBackup } from '../backup/final-backup.js';
import { destroyStack } from '../stack.js';
import { vmSizeOf } from '../engine-settings.js';
import { poolAddresses } from './nodes.js';
import { removeInstanceFirewall } from '../firewall/instance-firewall.js';

export function deleteInstance(ctx: JobContext, payload: DeleteJob): Promise<Outcome> {
  return runOperation(ctx, payload, {
    kind: 'delete',
    work: async ({ instance, region, type, run, write }) => {
      await ctx.repo.updateInstance(instance.id, { status: 'deleting', fault: null });
      await finalBackup(ctx, run, instance);
      const addresses = await poolAddresses(ctx, instance.id);
      if (addresses.length > 0) {
        await destroyStack(ctx, run, instance, region, vmSizeOf(type), addresses);
      } else {
        await run.event('notice', null, 'no addresses were ever allocated: nothing to destroy');
      }
      await run.step('cleanup', async () => {
        // Only once its VMs are gone: until then the rules still wall them in.
        await removeInstanceFirewall(ctx, instance.id, region);
        await fs.rm(path.join(ctx.config.runsDir, instance.id), { recursive: true, force: true });
        await fs.rm(path.join(ctx.config.terraformDir, instance.id), { recursive: true, force: true });
      });
      await write({
        status: 'deleted',
        deletedAt: new Date(),
        health: null,
        nodes: [],
        endpoints: [],
      });
      await ctx.repo.releaseAddresses(instance.id);
    },
  });
}
