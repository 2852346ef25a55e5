// modify: Terraform sets the VMs' new limits and disk in place (data kept), Ansible renders
// the new config and restarts the engine. A standard instance's nodes go one by one, replicas
// first, then a switchover: a larger disk reboots each VM onto it just before its own deploy
// (Terraform targets that node's disk), so writes pause only for the switchover. The instance
// row keeps its old type, disk and parameters until all of that succeeded; only then does it
// take the target's.
import type { InstanceRow, ModifyJob, ModifyTarget } from '@basalt/db';
import type { JobContext } from '../context.js';
import { runOperation, type Outcome } from './run-operation.js';
import { applyStack } from '../stack.js';
import { checkEndpoints, deployAndCheck } from '../engine-deploy.js';
import { rollingDeploy } from '../failover/rolling-deploy.js';
import { vmSizeOf } from '../engine-settings.js';
import { StepError } from '../errors.js';
import { poolAddresses, requireNodes } from './nodes.js';

/** The state the row holds now (a job queued before targets existed wrote it there). */
function currentTarget(instance: InstanceRow): ModifyTarget {
  return { instance_type: instance.instanceType, disk_gib: instance.diskGib, parameters: instance.parameters as Record<string, unknown> };
}

export function modify(ctx: JobContext, payload: ModifyJob): Promise<Outcome> {
  return runOperation(ctx, payload, {
    kind: 'modify',
    work: async ({ instance, region, run, write }) => {
      const target = payload.target ?? currentTarget(instance);
      const type = await ctx.catalog.getInstanceType(target.instance_type);
      if (!type) throw new StepError('load', `instance type ${target.instance_type} does not exist`);
      // The instance as it will be: what Terraform sizes and Ansible configures.
      const desired: InstanceRow = { ...instance, instanceType: type.id, diskGib: target.disk_gib, parameters: target.parameters };
      requireNodes(instance, 'load');
      const addresses = await poolAddresses(ctx, instance.id);
      await run.event('modify', null, `changes: ${JSON.stringify(payload.changes ?? {})}`);
      const size = vmSizeOf(type);
      if (desired.architecture === 'standard') {
        const grows = target.disk_gib !== instance.diskGib;
        // New limits apply in place to running VMs; a larger disk reboots a VM, so it waits for its node's turn.
        const nodes = grows ? requireNodes(instance, 'load') : await applyStack(ctx, run, desired, region, size, addresses);
        const rolled = await rollingDeploy(ctx, run, desired, region, nodes, 'engine.yml', {
          ...(grows ? { beforeNode: async (node) => void (await applyStack(ctx, run, desired, region, size, addresses, [], [node.name])) } : {}),
        });
        // Every node has its new limits and disk by now: the whole stack has nothing left to change.
        if (grows) await applyStack(ctx, run, desired, region, size, addresses);
        await checkEndpoints(ctx, run, desired, region, rolled);
        await write({
          status: 'running',
          health: 'healthy',
          fault: null,
          instanceType: type.id,
          diskGib: target.disk_gib,
          parameters: target.parameters,
        });
        return;
      }
      const nodes = await applyStack(ctx, run, desired, region, size, addresses);
      await write({
        ...(await deployAndCheck(ctx, run, desired, region, nodes)),
        instanceType: type.id,
        diskGib: target.disk_gib,
        parameters: target.parameters,
      });
    },
  });
}
