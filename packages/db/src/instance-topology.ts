// One typed contract for an instance's topology (issue 15): the nodes the `instances.nodes`
// column holds, the endpoints of `instances.endpoints`, and the pool addresses of
// `address_allocations`. The worker writes them, the failover monitor rewrites roles and the
// primary endpoint, and the API presents only the fields its DTOs declare
// (InstancesRepository's text columns pick them).
import type { Architecture, NodeRole } from '@basalt/api-client/rules';
import type { addressKind, instanceArchitecture } from './schema.js';

export type { Architecture, NodeRole, ReplicationMode } from '@basalt/api-client/rules';

/**
 * How a node is doing, as the last job or the failover monitor saw it: `fenced` never takes
 * writes again (its VM is stopped or it was made a replica); `rebuilding` is a replica being
 * made again from scratch.
 */
export const NODE_STATUSES = ['creating', 'running', 'unreachable', 'fenced', 'rebuilding'] as const;
export type NodeStatus = (typeof NODE_STATUSES)[number];

/** One VM of an instance. */
export interface InstanceNode {
  /** `<instance id>-<index>`: the VM's name, unique in the region. */
  name: string;
  role: NodeRole;
  status: NodeStatus;
  /** Bytes of the primary's replication stream this replica has not yet got; null for the primary or when unknown. */
  lag_bytes: number | null;
  /** The address the control plane allocated from the region's pool. */
  allocated_ip: string;
  /** Where the node listens (a process VM: the loopback twin of allocated_ip). */
  private_ip: string;
  public_ip: string;
  /** Empty for a process VM (Ansible connects locally). */
  ssh_user: string;
  data_dir: string;
}

/**
 * `primary`: the address that follows the primary (the floating address of a `standard`
 * instance, the only node's address of a `standalone` one). `readonly`: the floating address
 * held by a replica, for reads.
 */
export const ENDPOINT_ROLES = ['primary', 'readonly'] as const;
export type EndpointRole = (typeof ENDPOINT_ROLES)[number];

export interface InstanceEndpoint {
  role: EndpointRole;
  type: 'private' | 'public';
  host: string;
  port: number;
  tls: boolean;
  /** The node that holds the address now. */
  node: string;
  /** With TLS: the instance's CA certificate (PEM) that clients verify the server with. */
  ca_certificate?: string;
}

/** What a pool address is held for: a node's VM, or an endpoint's floating address. */
export const ADDRESS_KINDS = ['node', 'primary_endpoint', 'readonly_endpoint'] as const;
export type AddressKind = (typeof ADDRESS_KINDS)[number];

/** One address of a region's pool held by an instance (`address_allocations`). */
export interface AddressAllocation {
  /** The node's name for `node`; the endpoint's role for the others. */
  name: string;
  kind: AddressKind;
  address: string;
}

// The database enums hold the same values (schema.ts cannot import them: drizzle-kit reads it alone).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
export const enumsMatch: [Same<(typeof addressKind.enumValues)[number], AddressKind>, Same<(typeof instanceArchitecture.enumValues)[number], Architecture>] = [true, true];
