// The nodes an instance holds, as the last successful apply recorded them.
import type { InstanceRow } from '@basalt/db';
import type { Node } from '../stack.js';
import { StepError } from '../errors.js';

export function recordedNodes(instance: InstanceRow): Node[] {
  const nodes = Array.isArray(instance.nodes) ? (instance.nodes as Partial<Node>[]) : [];
  return nodes.filter((n): n is Node => typeof n?.private_ip === 'string' && typeof n?.name === 'string');
}

export function requireNodes(instance: InstanceRow, step: string): Node[] {
  const nodes = recordedNodes(instance);
  if (nodes.length === 0 || nodes.some((n) => !n.ssh_user)) {
    throw new StepError(step, `instance ${instance.id} has no deployed nodes (status ${instance.status})`);
  }
  return nodes;
}
