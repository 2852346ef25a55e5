// Per-project quotas on a shared host: how many instances, and how many vCPU and GiB of
// memory their types take together. Checked in the transaction that creates or resizes,
// after InstancesRepository.usage has locked the project's quota.
import type { InstancesRepository, InstanceTypeRow } from '@basalt/db';
import { DomainError } from '../common/errors.js';

export interface ProjectQuota {
  instances: number;
  vcpu: number;
  memory_gib: number;
}

export class QuotaExceeded extends DomainError {
  constructor(message: string, details: unknown) {
    super(403, 'quota_exceeded', message, details);
  }
}

/**
 * Throws QuotaExceeded unless the project has room for one more instance of `nodes` VMs of
 * `type` (`replacing`: the instance a resize gives that type, counted once). Every node (a
 * primary and each replica) takes its type's vCPU and memory.
 */
export async function requireQuotaRoom(
  instances: InstancesRepository,
  quota: ProjectQuota,
  projectId: string,
  type: InstanceTypeRow,
  nodes: number,
  replacing?: string,
): Promise<void> {
  const used = await instances.usage(projectId, { exceptId: replacing, lock: true });
  const wanted = { instances: used.instances + 1, vcpu: used.vcpu + type.vcpu * nodes, memory_gib: used.memory_gib + type.memoryGib * nodes };
  const over = (Object.keys(quota) as (keyof ProjectQuota)[]).filter((key) => wanted[key] > quota[key]);
  if (over.length === 0) return;
  throw new QuotaExceeded(
    `The project's quota does not allow this: ${over.map((key) => `${key} would be ${wanted[key]} of ${quota[key]}`).join(', ')}`,
    { quota, used, requested: { instance_type: type.id, nodes, vcpu: type.vcpu * nodes, memory_gib: type.memoryGib * nodes }, exceeded: over },
  );
}
