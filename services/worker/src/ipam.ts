// The region's address pool as a network: the first host address is the gateway (the
// host's side of the bridge), the rest are handed to nodes by the control plane.
import { hostAddresses } from '@basalt/db';
import { cidrContains } from '@basalt/api-client/rules';

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

/** Node names of an instance: `<instance id>-<index>`. */
export function nodeNames(instanceId: string, count: number): string[] {
  return Array.from({ length: count }, (_, index) => `${instanceId}-${index}`);
}

/** An empty allowlist lets everyone in, as the engine reads it. */
export function allowlistAdmits(cidrs: string[], ip: string): boolean {
  return cidrs.length === 0 || cidrs.some((cidr) => cidrContains(cidr, ip));
}
