// After a failover, the old primary's VM (fenced: killed) is made again from scratch as a
// replica of the new primary (issue 15): Terraform replaces that one VM, Ansible deploys all
// nodes (the new primary's config loses its replicaof without a restart; the fresh node gets
// the new primary's address), the replica takes a full copy, and the read-only address goes
// back onto a replica. A sync instance that acknowledged without a replica meanwhile is sync
// again once the replica has caught up.
import type { InstanceRow, RegionRow } from '@basalt/db';
import type { JobContext } from '../context.js';
import type { OperationRun } from '../operation.js';
import type { Node } from '../stack.js';
import { applyStack } from '../stack.js';
import { applyInstanceFirewall } from '../firewall/instance-firewall.js';
import { deployEngine, floatingAddressesOf, readonlyHolder } from '../engine-deploy.js';
import { vmSizeOf } from '../engine-settings.js';
import { poolAddresses } from '../jobs/nodes.js';
import { allocate } from '../jobs/provision.js';
import { assignAddress, clearFencedVmNetwork, unassignAddress } from '../local-vm.js';
import { StepError } from '../errors.js';
import { EngineReplication } from './engine-replication.js';
import { endpointsAfter } from './failover.js';

/** How long a fresh replica gets to connect and take its full copy. */
const SYNC_WAIT_MS = 120_000;

/** What a rebuild runs, on its own or at the end of a failover. */
export type RebuildStep = 'terraform_init' | 'terraform_apply' | 'ansible_deploy' | 'replica_sync';

export async function rebuildReplica(ctx: JobContext, run: OperationRun<RebuildStep>, instance: InstanceRow, region: RegionRow, nodeName: string, restoreSync: boolean): Promise<void> {
  const type = await ctx.catalog.getInstanceType(instance.instanceType);
  if (!type) throw new StepError('terraform_apply', `instance type ${instance.instanceType} does not exist`);
  const rebuilding = instance.nodes.map((node): Node => (node.name === nodeName ? { ...node, role: 'replica', status: 'rebuilding', lag_bytes: null } : node));
  await ctx.repo.updateInstance(instance.id, { nodes: rebuilding });
  await run.event('failover', 'terraform_apply', `rebuilding ${nodeName} as a fresh replica`);

  const old = instance.nodes.find((node) => node.name === nodeName);
  if (old) await clearFencedVmNetwork(ctx, old);
  const current = { ...instance, nodes: rebuilding };
  // The node made again keeps its instance's rules (its address is the instance's); applied
  // again so they hold whatever a killed worker left.
  await applyInstanceFirewall(ctx, instance.id, region);
  let applied: Node[];
  try {
    applied = await applyStack(ctx, run, current, region, vmSizeOf(type), await poolAddresses(ctx, instance.id), [nodeName]);
  } catch (error) {
    // While the node was down its address looked free to whatever else shares the bridge (a
    // control plane of another clone), which may have taken it: the node gets another one.
    if (!/already answers on the bridge/.test((error as Error).message)) throw error;
    const taken = (await ctx.repo.listAddresses(instance.id)).find((a) => a.name === nodeName)?.address;
    await run.event('failover', 'terraform_apply', `${taken} of ${nodeName} is in use by another VM on the bridge; giving ${nodeName} another address`);
    if (taken) await ctx.repo.releaseAddresses(instance.id, [taken]);
    await allocate(ctx, instance, region);
    // The address given back is no longer walled in as this instance's; the new one is.
    await applyInstanceFirewall(ctx, instance.id, region);
    applied = await applyStack(ctx, run, current, region, vmSizeOf(type), await poolAddresses(ctx, instance.id), [nodeName]);
  }
  await deployEngine(ctx, run, current, region, applied);

  const engines = new EngineReplication(ctx, instance);
  const fresh = applied.find((node) => node.name === nodeName)!;
  const primary = applied.find((node) => node.role === 'primary')!;
  await run.step('replica_sync', async () => {
    const deadline = Date.now() + SYNC_WAIT_MS;
    for (;;) {
      const state = await engines.state(fresh).catch(() => undefined);
      if (state?.role === 'slave' && state.linkUp) break;
      if (Date.now() > deadline) throw new StepError('replica_sync', `${nodeName} did not reach its primary ${primary.name} within ${SYNC_WAIT_MS / 1000} s`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    if (restoreSync) {
      await engines.setMode(primary, 'sync');
      await run.event('failover', 'replica_sync', `${nodeName} streams from ${primary.name}; writes are acknowledged by a replica again (sync)`);
    } else {
      await run.event('failover', 'replica_sync', `${nodeName} streams from ${primary.name}`);
    }
  });

  const running = applied.map((node) => ({ ...node, status: 'running' as const }));
  const floating = await floatingAddressesOf(ctx, instance.id);
  const reader = readonlyHolder(running);
  if (floating && reader) {
    for (const node of running) if (node !== reader) await unassignAddress(ctx, node, floating.readonly, region.addressPool);
    await assignAddress(ctx, reader, floating.readonly, region.addressPool);
  }
  await ctx.repo.updateInstance(instance.id, { nodes: running, endpoints: endpointsAfter(instance, running), health: 'healthy' });
}
