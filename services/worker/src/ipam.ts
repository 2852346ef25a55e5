// The region's address pool as a network: the first host address is the gateway (the
// host's side of the bridge), the rest are handed to nodes by the control plane.
import { hostAddresses, type AddressAllocation, type InstanceRow, type RegionRow } from '@basalt/db';
import { cidrContains, normaliseCidr, nodeCountOf } from '@basalt/api-client/rules';

// One CIDR parser for API, console and worker: @basalt/api-client/rules.
export { cidrContains };

export interface PoolNetwork {
  cidr: string;
  gateway: string;
  prefixLength: number;
}

export function poolNetwork(cidr: string): PoolNetwork {
  const first = hostAddresses(cidr).next();
  if (first.done) throw new Error(`address pool ${cidr} has no host addresses`);
  return { cidr, gateway: first.value, prefixLength: Number(cidr.split('/')[1]) };
}

/** Whether every address of CIDR `inner` lies in CIDR `outer` (both IPv4 or both IPv6). */
export function cidrWithin(outer: string, inner: string): boolean {
  const canonical = normaliseCidr(inner);
  if (!canonical || !inner.includes('/')) return false;
  const [base, prefix] = canonical.split('/') as [string, string];
  return Number(prefix) >= Number(outer.split('/')[1]) && cidrContains(outer, base);
}

/**
 * The addresses this control plane may hand out in a region: its own range of region
 * `local`'s pool when it was given one (BASALT_ADDRESS_RANGE), else the whole pool. The
 * network (gateway, prefix length) is always the region's.
 */
export function allocationPool(addressRange: string | undefined, region: Pick<RegionRow, 'target' | 'addressPool'>): string {
  return addressRange && region.target === 'local' ? addressRange : region.addressPool;
}

/** Node names of an instance: `<instance id>-<index>`. */
export function nodeNames(instanceId: string, count: number): string[] {
  return Array.from({ length: count }, (_, index) => `${instanceId}-${index}`);
}

/**
 * The pool addresses an instance holds: one per node VM (the primary and its replicas) and,
 * for `standard`, the floating addresses of its primary and read-only endpoints.
 */
export function wantedAddresses(instance: Pick<InstanceRow, 'id' | 'architecture' | 'replicas'>): Pick<AddressAllocation, 'name' | 'kind'>[] {
  const nodes = nodeNames(instance.id, nodeCountOf(instance)).map((name) => ({ name, kind: 'node' as const }));
  if (instance.architecture !== 'standard') return nodes;
  return [...nodes, { name: 'primary', kind: 'primary_endpoint' }, { name: 'readonly', kind: 'readonly_endpoint' }];
}

/** An empty allowlist lets everyone in, as the engine reads it. */
export function allowlistAdmits(cidrs: string[], ip: string): boolean {
  return cidrs.length === 0 || cidrs.some((cidr) => cidrContains(cidr, ip));
}
