// The nodes an instance holds, as the last successful apply recorded them.
import type { InstanceRow } from '@basalt/db';
import type { Node } from '../stack.js';
import { StepError } from '../errors.js';

export function recordedNodes(instance: InstanceRow): Node[] {
  const nodes = Array.isArray(instance.nodes) ? (instance.nodes as Partial<Node>[]) : [];
  return nodes.filter((n): n is Node => typeof n?.private_ip === 'string' && typeof n?.name === 'string');
}

/** The pool addresses an instance holds, to hand to Terraform again. */
export function poolAddresses(nodes: Node[]): string[] {
  return nodes.map((node) => node.allocated_ip ?? node.private_ip);
}

export function requireNodes(instance: InstanceRow, step: string): Node[] {
  const nodes = recordedNodes(instance);
  if (nodes.length === 0 || nodes.some((n) => n.ssh_user === undefined)) {
    throw new StepError(step, `instance ${instance.id} has no deployed nodes (status ${instance.status})`);
  }
  return nodes;
}
