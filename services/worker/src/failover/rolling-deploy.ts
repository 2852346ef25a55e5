// A restart or a redeploy (a resize, new parameters) of a standard instance node by node
// (issue 15): every replica is done and catches up with its primary first; then a switchover
// (zero loss) makes a done replica the primary, and the old primary is done last, as a
// replica. Writes pause only for the switchover: while the only replica of a sync instance
// restarts, its primary acknowledges without it (async) until it streams again, instead of
// refusing every write. A larger disk rolls the same way: each node's VM reboots onto its grown
// disk just before its deploy (`beforeNode`), and comes back without the floating addresses,
// which are put back on their nodes before the next one is touched.
import type { InstanceRow, RegionRow } from '@basalt/db';
import type { JobContext } from '../context.js';
import type { OperationRun } from '../operation.js';
import type { Node } from '../stack.js';
import { deployEngine, floatingAddressesOf, holdFloatingAddress, PLAYBOOK_STEPS, readonlyHolder, type PlaybookStep } from '../engine-deploy.js';
import { StepError } from '../errors.js';
import { EngineReplication } from './engine-replication.js';
import { switchOver, type SwitchoverStep } from './failover.js';
import { replicationModeOf } from '../engine-deploy.js';

const CATCH_UP_MS = 60_000;

export interface RollingOptions {
  /** Runs on each node right before its deploy, a replica at the time (its VM may reboot: a larger disk). */
  beforeNode?: (node: Node) => Promise<void>;
}

export async function rollingDeploy<P extends 'restart.yml' | 'engine.yml'>(
  ctx: JobContext,
  run: OperationRun<PlaybookStep<P> | SwitchoverStep>,
  instance: InstanceRow,
  region: RegionRow,
  nodes: Node[],
  playbook: P,
  options: RollingOptions = {},
): Promise<Node[]> {
  const step = PLAYBOOK_STEPS[playbook];
  const engines = new EngineReplication(ctx, instance);
  const primary = nodes.find((node) => node.role === 'primary');
  if (!primary) throw new StepError(step, `instance ${instance.id} records no primary`);
  /** A rebooted VM holds none of the floating addresses: each goes back on the node whose role it serves. */
  const placeFloatingAddresses = async (all: Node[]) => {
    const floating = await floatingAddressesOf(ctx, instance.id);
    const current = all.find((n) => n.role === 'primary');
    const reader = readonlyHolder(all.filter((n) => n.status === 'running'));
    if (!floating || !current) return;
    await holdFloatingAddress(ctx, region, all, floating.primary, current);
    if (reader && reader.role === 'replica') await holdFloatingAddress(ctx, region, all, floating.readonly, reader);
  };
  const restartReplica = async (node: Node, all: Node[]) => {
    const current = all.find((n) => n.role === 'primary')!;
    const alone = replicationModeOf(instance) === 'sync' && all.filter((n) => n.role === 'replica' && n.status === 'running').length === 1;
    await run.event('rolling', step, `${playbook} on ${node.name} (replica)${alone ? `; ${current.name} acknowledges without it meanwhile` : ''}`);
    if (alone) await engines.setMode(current, 'async');
    try {
      if (options.beforeNode) {
        await options.beforeNode(node);
        await placeFloatingAddresses(all);
      }
      await deployEngine(ctx, run, instance, region, all, playbook, [node.name]);
      const deadline = Date.now() + CATCH_UP_MS;
      for (;;) {
        const state = await engines.state(node).catch(() => undefined);
        if (state?.role === 'slave' && state.linkUp) break;
        if (Date.now() > deadline) throw new StepError(step, `${node.name} did not stream from its primary again within ${CATCH_UP_MS / 1000} s`);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    } finally {
      if (alone) await engines.setMode(current, 'sync');
    }
  };
  for (const node of nodes) if (node.role === 'replica') await restartReplica(node, nodes);
  const swapped = await switchOver(ctx, run, instance, region, nodes, primary);
  await restartReplica(swapped.find((node) => node.name === primary.name)!, swapped);
  return swapped;
}
