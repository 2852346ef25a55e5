// Region `local`'s host network, set up when the worker starts and before it takes a job:
// the same script the bootstrap runs (infra/terraform/modules/local/scripts/host-network.sh)
// makes the project bridge, its gateway address and the pool's route of last resort. A
// worker that cannot set it up says so in one line, takes no job of that region, and marks it
// unavailable in the catalog (main.ts), so that the API creates no instance there.
import path from 'node:path';
import type { RegionRow } from '@basalt/db';
import { ARCHITECTURES, type Architecture } from '@basalt/api-client/rules';
import type { WorkerConfig } from './config.js';
import { poolNetwork } from './ipam.js';
import { outputTail, runCommand } from './process.js';

/** Regions this worker cannot serve, with the reason, by region id. */
export type UnavailableRegions = Map<string, string>;

type HostRegion = Pick<RegionRow, 'id' | 'target' | 'addressPool'>;

/** The regions whose VMs live on this host (target `local`): the ones a worker here serves. */
export const hostRegions = <R extends HostRegion>(regions: R[]): R[] => regions.filter((region) => region.target === 'local');

/**
 * The architectures this worker places in its host's regions: a standard instance needs a VM
 * of its own per node (an address that moves on failover); process VMs give it none.
 */
export function architecturesServed(config: Pick<WorkerConfig, 'vmKind'>): Architecture[] {
  return config.vmKind === 'nspawn' ? [...ARCHITECTURES] : ARCHITECTURES.filter((architecture) => architecture !== 'standard');
}

export async function prepareHostNetwork(config: WorkerConfig, regions: HostRegion[]): Promise<UnavailableRegions> {
  const unavailable: UnavailableRegions = new Map();
  for (const region of hostRegions(regions)) {
    // Process VMs listen on loopback twins of their addresses: no bridge to set up.
    if (config.vmKind === 'process') continue;
    const network = poolNetwork(region.addressPool);
    const script = path.join(config.root, 'infra', 'terraform', 'modules', 'local', 'scripts', 'host-network.sh');
    const result = await runCommand(script, [], {
      env: { PATH: process.env.PATH, VM_BRIDGE: config.bridge, VM_GATEWAY: network.gateway, VM_PREFIX_LENGTH: String(network.prefixLength) },
      timeoutMs: 30_000,
    });
    if (result.exitCode !== 0) {
      const reason = outputTail(result.stderr || result.stdout, 1) || `exit ${result.exitCode}`;
      unavailable.set(region.id, `cannot set up bridge ${config.bridge} for ${region.addressPool}: ${reason.replace(/^error: /, '')}`);
    }
  }
  return unavailable;
}
