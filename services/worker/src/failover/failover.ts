// The failover job of a `standard` instance (issue 15), run by the failover monitor at once
// and queued as well, so that a worker that dies halfway leaves it to another (runOperation:
// one worker per operation and per instance, through the leases in PostgreSQL).
//
// automatic: the primary is unreachable. Fence it first (its floating address off, its VM
//   killed: it can never take a write again), then promote the replica whose log goes
//   furthest (in sync mode it holds every acknowledged write), point the other replicas at
//   it, move the primary address onto it, and rebuild the old primary as a fresh replica.
// switchover: asked for through the API, with zero loss: the primary refuses writes, a
//   replica catches up to its offset, takes over, and the old primary follows it.
import type { FailoverJob, InstanceRow, RegionRow, StepName, SWITCHOVER_STEPS } from '@basalt/db';
import type { JobContext } from '../context.js';
import type { OperationRun } from '../operation.js';
import type { Node } from '../stack.js';
import { runOperation, type Outcome } from '../jobs/run-operation.js';
import { requireNodes } from '../jobs/nodes.js';
import { StepError } from '../errors.js';
import { deployEngine, floatingAddressesOf, readonlyHolder, replicationModeOf } from '../engine-deploy.js';
import { assignAddress, fenceVm, unassignAddress } from '../local-vm.js';
import { EngineReplication } from './engine-replication.js';
import { rebuildReplica, type RebuildStep } from './rebuild.js';

export type SwitchoverStep = (typeof SWITCHOVER_STEPS)[number];


/** How long the primary gets to answer again before the failover goes on (it was already missed by the monitor). */
const RECHECK_MS = 700;
/** How long a switchover waits for the replica to reach the primary's offset. */
const CATCH_UP_MS = 10_000;

export function failover(ctx: JobContext, payload: FailoverJob): Promise<Outcome> {
  const switchover = payload.mode === 'switchover';
  return runOperation(ctx, payload, {
    kind: 'failover',
    // A switchover asked for through the API takes its turn; a failover or rebuild the monitor
    // started does not wait behind the work it rescues (only for the instance's lease).
    variant: payload.mode === 'automatic' ? undefined : payload.mode,
    work: async ({ instance, region, run }) => {
      if (instance.architecture !== 'standard') throw new StepError('load', 'only a standard instance has replicas to fail over to');
      const nodes = requireNodes(instance, 'load');
      const primary = nodes.find((node) => node.role === 'primary');
      if (!primary) throw new StepError('load', `instance ${instance.id} records no primary`);
      if (switchover) await switchOver(ctx, run, instance, region, nodes, primary);
      else if (payload.mode === 'rebuild') await rebuildFenced(ctx, run, instance, region, nodes);
      else await failOver(ctx, run, instance, region, nodes, primary, payload.suspected_primary);
    },
  });
}

async function failOver(ctx: JobContext, run: OperationRun<StepName<'failover'>>, instance: InstanceRow, region: RegionRow, nodes: Node[], primary: Node, suspected?: string): Promise<void> {
  const engines = new EngineReplication(ctx, instance);
  const stale = await run.step('check_primary', async () => {
    if (suspected && suspected !== primary.name) {
      await run.event('notice', 'check_primary', `${suspected} is no longer the primary (${primary.name} is): nothing to do`);
      return true;
    }
    if (await engines.answers(primary, RECHECK_MS)) {
      await run.event('notice', 'check_primary', `${primary.name} answers again: no failover`);
      return true;
    }
    await run.event('failover', 'check_primary', `${primary.name} (${primary.private_ip}) does not answer`);
    return false;
  });
  if (stale) return;

  const replicas = nodes.filter((node) => node.role === 'replica');
  const { chosen, offsets } = await run.step('choose_replica', () => mostUpToDate(engines, replicas));
  await run.event('failover', 'choose_replica', `${chosen.name} has the furthest log (offsets ${JSON.stringify(offsets)})`, offsets);

  const floating = await floatingAddressesOf(ctx, instance.id);
  if (!floating) throw new StepError('move_endpoint', `instance ${instance.id} holds no floating addresses`);
  await run.step('fence_primary', async () => {
    await unassignAddress(ctx, primary, floating.primary, region.addressPool);
    await fenceVm(ctx, primary);
    await run.event('failover', 'fence_primary', `${primary.name}: primary address taken off, VM stopped; it takes no write again`);
  });

  const others = replicas.filter((node) => node !== chosen);
  const mode = replicationModeOf(instance);
  await run.step('promote', async () => {
    await engines.promote(chosen);
    for (const node of others) await engines.follow(node, chosen);
    // With no replica left until the rebuild, a sync primary would refuse every write.
    if (mode === 'sync' && others.length === 0) {
      await engines.setMode(chosen, 'async');
      await run.event('failover', 'promote', `${chosen.name} is the primary; no replica is left until the rebuild, so writes are acknowledged without one until then`);
    } else {
      await run.event('failover', 'promote', `${chosen.name} is the primary${others.length ? `; ${others.map((n) => n.name).join(', ')} follow it` : ''}`);
    }
  });

  const promoted = nodes.map((node): Node => {
    if (node === chosen) return { ...node, role: 'primary', status: 'running', lag_bytes: null };
    if (node === primary) return { ...node, role: 'replica', status: 'fenced', lag_bytes: null };
    return node;
  });
  await run.step('move_endpoint', async () => {
    await assignAddress(ctx, chosen, floating.primary, region.addressPool);
    // The read-only address stays on a replica, never on the primary.
    const reader = readonlyHolder(promoted.filter((node) => node.status === 'running'));
    await unassignAddress(ctx, chosen, floating.readonly, region.addressPool);
    if (reader) await assignAddress(ctx, reader, floating.readonly, region.addressPool);
    await ctx.repo.updateInstance(instance.id, { nodes: promoted, endpoints: endpointsAfter(instance, promoted) });
    await run.event('failover', 'move_endpoint', `primary endpoint ${floating.primary} now on ${chosen.name}`);
  });

  await rebuildReplica(ctx, run, { ...instance, nodes: promoted }, region, primary.name, mode === 'sync' && others.length === 0);
}

/** The zero-loss switchover; returns the nodes with their new roles (also written to the row). */
export async function switchOver(ctx: JobContext, run: OperationRun<SwitchoverStep>, instance: InstanceRow, region: RegionRow, nodes: Node[], primary: Node): Promise<Node[]> {
  const engines = new EngineReplication(ctx, instance);
  const replicas = nodes.filter((node) => node.role === 'replica' && node.status === 'running');
  const { chosen } = await run.step('choose_replica', () => mostUpToDate(engines, replicas));
  const floating = await floatingAddressesOf(ctx, instance.id);
  if (!floating) throw new StepError('move_endpoint', `instance ${instance.id} holds no floating addresses`);

  // From here the primary refuses writes: nothing acknowledged can be missing on the replica.
  await run.step('stop_writes', () => engines.refuseWrites(primary));
  try {
    await run.step('catch_up', async () => {
      const target = (await engines.state(primary)).offset;
      const deadline = Date.now() + CATCH_UP_MS;
      for (;;) {
        const reached = (await engines.state(chosen)).offset;
        if (reached >= target) {
          await run.event('switchover', 'catch_up', `${chosen.name} reached the primary's offset ${target}`, { offset: target });
          return;
        }
        if (Date.now() > deadline) throw new StepError('catch_up', `${chosen.name} reached ${reached} of ${target} in ${CATCH_UP_MS} ms`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    });
  } catch (error) {
    await engines.run(primary, [['CONFIG', 'SET', 'read-only', 'no']]).catch(() => {});
    throw error;
  }

  const swapped = nodes.map((node): Node => {
    if (node === chosen) return { ...node, role: 'primary', lag_bytes: null };
    if (node === primary) return { ...node, role: 'replica' };
    return node;
  });
  await run.step('promote', async () => {
    await engines.promote(chosen);
    // The old primary and the other replicas stream from the new one (each keeps its log).
    for (const node of swapped) if (node.role === 'replica' && node.status === 'running') await engines.follow(node, chosen);
  });
  await run.step('move_endpoint', async () => {
    await unassignAddress(ctx, primary, floating.primary, region.addressPool);
    await assignAddress(ctx, chosen, floating.primary, region.addressPool);
    const reader = readonlyHolder(swapped);
    for (const node of swapped) if (node !== reader) await unassignAddress(ctx, node, floating.readonly, region.addressPool);
    if (reader) await assignAddress(ctx, reader, floating.readonly, region.addressPool);
    await ctx.repo.updateInstance(instance.id, { nodes: swapped, endpoints: endpointsAfter(instance, swapped) });
    await run.event('switchover', 'move_endpoint', `primary endpoint ${floating.primary} now on ${chosen.name}`);
  });
  // Every node's config file says where it streams from now (the new primary's still named the
  // old one: a restart would have made it a replica again). Only the file changes: no restart.
  await deployEngine(ctx, run, { ...instance, nodes: swapped }, region, swapped);
  return swapped;
}

/** A node a failover fenced and could not rebuild is rebuilt (the sync primary acknowledges alone until then). */
async function rebuildFenced(ctx: JobContext, run: OperationRun<RebuildStep>, instance: InstanceRow, region: RegionRow, nodes: Node[]): Promise<void> {
  const fenced = nodes.find((node) => node.status === 'fenced' || node.status === 'rebuilding');
  if (!fenced) {
    await run.event('notice', null, 'no node waits for a rebuild');
    return;
  }
  const alone = !nodes.some((node) => node.role === 'replica' && node.status === 'running');
  await rebuildReplica(ctx, run, instance, region, fenced.name, replicationModeOf(instance) === 'sync' && alone);
}

/** The reachable replica whose log goes furthest, with every replica's offset. */
async function mostUpToDate(engines: EngineReplication, replicas: Node[]): Promise<{ chosen: Node; offsets: Record<string, number | string> }> {
  const offsets: Record<string, number | string> = {};
  let chosen: Node | undefined;
  let best = -1;
  for (const node of replicas) {
    try {
      const state = await engines.state(node);
      offsets[node.name] = state.offset;
      if (state.offset > best) {
        best = state.offset;
        chosen = node;
      }
    } catch (error) {
      offsets[node.name] = (error as Error).message;
    }
  }
  if (!chosen) throw new StepError('choose_replica', `no replica answers: ${JSON.stringify(offsets)}`);
  return { chosen, offsets };
}

/** The endpoints with each one on the node that holds its address now. */
export function endpointsAfter(instance: InstanceRow, nodes: Node[]): InstanceRow['endpoints'] {
  const primary = nodes.find((node) => node.role === 'primary');
  const reader = readonlyHolder(nodes.filter((node) => node.status === 'running'));
  return instance.endpoints.map((endpoint) => ({
    ...endpoint,
    node: endpoint.role === 'primary' ? (primary?.name ?? endpoint.node) : (reader?.name ?? endpoint.node),
  }));
}
