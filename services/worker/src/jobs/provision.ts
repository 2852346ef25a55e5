// provision: addresses from the region's pool, VMs through Terraform, the engine through
// Ansible, then PING through the endpoint; only then `running`. Idempotent, so a retry or
// a reconciling worker simply runs it again.
import type { ProvisionJob } from '@basalt/db';
import type { JobContext } from '../context.js';
import { runOperation, type Outcome } from './run-operation.js';
import { nodeNames, poolNetwork } from '../ipam.js';
import { applyStack } from '../stack.js';
import { checkEndpoints, deployEngine, endpointsOf } from '../engine-deploy.js';
import { vmSizeOf } from '../engine-settings.js';
import { StepError } from '../errors.js';

export const PROVISION_STEPS = ['allocate_addresses', 'terraform_init', 'terraform_apply', 'ansible_deploy', 'health_check'];

export function provision(ctx: JobContext, payload: ProvisionJob): Promise<Outcome> {
  return runOperation(ctx, payload, {
    steps: PROVISION_STEPS,
    failureStatus: 'create_failed',
    work: async ({ instance, region, type, run }) => {
      if (instance.status === 'deleting' || instance.status === 'deleted') {
        throw new StepError('load', `instance ${instance.id} is ${instance.status}; not provisioning it`);
      }
      await ctx.repo.updateInstance(instance.id, { status: 'creating', fault: null });
      const addresses = await run.step('allocate_addresses', async () => {
        const network = poolNetwork(region.addressPool);
        const names = nodeNames(instance.id, 1);
        const given = await ctx.repo.allocateAddresses(instance.id, region.id, region.addressPool, names, [network.gateway]);
        return given.map((node) => node.private_ip);
      });
      const nodes = await applyStack(ctx, run, instance, region, vmSizeOf(type), addresses);
      await ctx.repo.updateInstance(instance.id, { nodes });
      await deployEngine(ctx, run, instance, region, nodes);
      await checkEndpoints(ctx, run, instance, region, nodes);
      await ctx.repo.updateInstance(instance.id, {
        status: 'running',
        health: 'healthy',
        fault: null,
        nodes,
        endpoints: endpointsOf(nodes),
      });
    },
  });
}
