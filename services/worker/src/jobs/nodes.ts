// The nodes an instance holds, as the last successful apply recorded them, and the pool
// addresses it holds (address_allocations).
import type { InstanceRow } from '@basalt/db';
import type { Node } from '../stack.js';
import type { JobContext } from '../context.js';
import { StepError } from '../errors.js';

export function recordedNodes(instance: InstanceRow): Node[] {
  const nodes = Array.isArray(instance.nodes) ? (instance.nodes as Partial<Node>[]) : [];
  return nodes.filter((n): n is Node => typeof n?.private_ip === 'string' && typeof n?.name === 'string');
}

/** The pool addresses of the instance's node VMs in node order, to hand to Terraform again. */
export async function poolAddresses(ctx: JobContext, instanceId: string): Promise<string[]> {
  const held = await ctx.repo.listAddresses(instanceId);
  return held
    .filter((a) => a.kind === 'node')
    .sort((a, b) => nodeIndex(a.name) - nodeIndex(b.name))
    .map((a) => a.address);
}

/** `<instance id>-<index>` -> index. */
export function nodeIndex(name: string): number {
  return Number(name.slice(name.lastIndexOf('-') + 1));
}

export function requireNodes(instance: InstanceRow, step: string): Node[] {
  const nodes = recordedNodes(instance);
  if (nodes.length === 0 || nodes.some((n) => n.ssh_user === undefined)) {
    throw new StepError(step, `instance ${instance.id} has no deployed nodes (status ${instance.status})`);
  }
  return nodes;
}
