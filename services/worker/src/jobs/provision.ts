// provision: addresses from the region's pool, VMs through Terraform, the engine through
// Ansible, then PING through the endpoint; only then `running`. Idempotent, so a retry or
// a reconciling worker simply runs it again.
import type { ProvisionJob } from '@basalt/db';
import type { JobContext } from '../context.js';
import { runOperation, type Outcome } from './run-operation.js';
import fs from 'node:fs';
import path from 'node:path';
import { nodeNames, poolNetwork } from '../ipam.js';
import { addressAnswers } from '../address-probe.js';
import { ENGINE_PORT } from '../engine-settings.js';
import { applyStack } from '../stack.js';
import { caCertificateOf, checkEndpoints, deployEngine, endpointsOf } from '../engine-deploy.js';
import { vmSizeOf } from '../engine-settings.js';
import { StepError } from '../errors.js';

export const PROVISION_STEPS = ['allocate_addresses', 'terraform_init', 'terraform_apply', 'ansible_deploy', 'health_check'];

/**
 * Addresses from the region's pool; one that something else on the bridge already
 * answers at (another control plane on this host) is skipped and the next one taken.
 * Addresses this instance already holds, with its VM here, are kept as they are.
 */
async function allocate(ctx: JobContext, instanceId: string, regionId: string, pool: string): Promise<string[]> {
  const network = poolNetwork(pool);
  const names = nodeNames(instanceId, 1);
  const skipped: string[] = [];
  for (let attempt = 0; attempt < 32; attempt++) {
    const given = await ctx.repo.allocateAddresses(instanceId, regionId, pool, names, [network.gateway, ...skipped]);
    const taken: string[] = [];
    for (const node of given) {
      if (fs.existsSync(path.join(ctx.config.vmsDir, node.name))) continue;
      const probe = ctx.config.vmKind === 'process' ? { ip: loopbackTwin(node.private_ip), port: ENGINE_PORT } : { ip: node.private_ip, port: 22 };
      if (await addressAnswers(probe.ip, probe.port)) taken.push(node.private_ip);
    }
    if (taken.length === 0) return given.map((node) => node.private_ip);
    ctx.log(`[${instanceId}] ${taken.join(', ')} already answer on this host; taking other addresses`);
    skipped.push(...taken);
    await ctx.repo.updateInstance(instanceId, { nodes: [] });
  }
  throw new StepError('allocate_addresses', `no free address found in ${pool} after skipping ${skipped.length} in use`);
}

/** The loopback address a process VM listens on for a pool address (10.77.0.5 -> 127.77.0.5). */
function loopbackTwin(ip: string): string {
  return ['127', ...ip.split('.').slice(1)].join('.');
}

export function provision(ctx: JobContext, payload: ProvisionJob): Promise<Outcome> {
  return runOperation(ctx, payload, {
    steps: PROVISION_STEPS,
    failureStatus: 'create_failed',
    work: async ({ instance, region, type, run }) => {
      if (instance.status === 'deleting' || instance.status === 'deleted') {
        throw new StepError('load', `instance ${instance.id} is ${instance.status}; not provisioning it`);
      }
      await ctx.repo.updateInstance(instance.id, { status: 'creating', fault: null });
      const addresses = await run.step('allocate_addresses', () => allocate(ctx, instance.id, region.id, region.addressPool));
      const nodes = await applyStack(ctx, run, instance, region, vmSizeOf(type), addresses);
      await ctx.repo.updateInstance(instance.id, { nodes });
      const deployed = await deployEngine(ctx, run, instance, region, nodes);
      const ca = instance.tlsEnabled ? caCertificateOf(deployed) : undefined;
      await checkEndpoints(ctx, run, instance, region, nodes, ca);
      await ctx.repo.updateInstance(instance.id, {
        status: 'running',
        health: 'healthy',
        fault: null,
        nodes,
        endpoints: endpointsOf(nodes, ca),
      });
    },
  });
}
