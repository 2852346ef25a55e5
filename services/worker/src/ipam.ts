// The region's address pool as a network: the first host address is the gateway (the
// host's side of the bridge), the rest are handed to nodes by the control plane.
import { hostAddresses } from '@basalt/db';

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

function ipv4ToNumber(ip: string): number | undefined {
  const parts = ip.split('.');
  if (parts.length !== 4 || parts.some((p) => !/^\d{1,3}$/.test(p) || Number(p) > 255)) return undefined;
  return parts.reduce((n, p) => n * 256 + Number(p), 0);
}

/** Whether an IPv4 address lies in a CIDR (a bare address is a /32); IPv6 CIDRs never hold it. */
export function cidrContains(cidr: string, ip: string): boolean {
  const [base, bits = '32'] = cidr.split('/');
  const network = ipv4ToNumber(base ?? '');
  const address = ipv4ToNumber(ip);
  const prefix = Number(bits);
  if (network === undefined || address === undefined || !(prefix >= 0 && prefix <= 32)) return false;
  const size = 2 ** (32 - prefix);
  return Math.floor(network / size) === Math.floor(address / size);
}

/** An empty allowlist lets everyone in, as the engine reads it. */
export function allowlistAdmits(cidrs: string[], ip: string): boolean {
  return cidrs.length === 0 || cidrs.some((cidr) => cidrContains(cidr, ip));
}
