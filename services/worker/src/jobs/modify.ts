// modify: the instance row already holds the new type; Terraform sets the VMs' new limits
// in place (data kept), Ansible renders the new config and restarts the engine.
import type { ModifyJob } from '@basalt/db';
import type { JobContext } from '../context.js';
import { runOperation, type Outcome } from './run-operation.js';
import { applyStack } from '../stack.js';
import { caCertificateOf, checkEndpoints, deployEngine, endpointsOf } from '../engine-deploy.js';
import { vmSizeOf } from '../engine-settings.js';
import { poolAddresses, requireNodes } from './nodes.js';

export function modify(ctx: JobContext, payload: ModifyJob): Promise<Outcome> {
  return runOperation(ctx, payload, {
    steps: ['terraform_init', 'terraform_apply', 'ansible_deploy', 'health_check'],
    failureStatus: 'error',
    work: async ({ instance, region, type, run }) => {
      const addresses = poolAddresses(requireNodes(instance, 'load'));
      await run.event('modify', null, `changes: ${JSON.stringify(payload.changes ?? {})}`);
      const nodes = await applyStack(ctx, run, instance, region, vmSizeOf(type), addresses);
      const deployed = await deployEngine(ctx, run, instance, region, nodes);
      const ca = instance.tlsEnabled ? caCertificateOf(deployed) : undefined;
      await checkEndpoints(ctx, run, instance, region, nodes, ca);
      await ctx.repo.updateInstance(instance.id, { status: 'running', health: 'healthy', fault: null, nodes, endpoints: endpointsOf(nodes, ca) });
    },
  });
}
