// provision: addresses from the region's pool, VMs through Terraform, the engine through
// Ansible, then PING through the endpoint; only then `running`. Idempotent, so a retry or
// a reconciling worker runs it again, resuming past the steps an earlier attempt finished
// (operation-kinds.ts `resumable`).
import type { AddressAllocation, InstanceRow, ProvisionJob, RegionRow } from '@basalt/db';
import type { JobContext } from '../context.js';
import { runOperation, type Outcome } from './run-operation.js';
import { restoreData } from '../backup/restore-data.js';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { allocationPool, poolNetwork, wantedAddresses } from '../ipam.js';
import { addressAnswers } from '../address-probe.js';
import { UnroutedAddressError } from '../host-route.js';
import { ENGINE_PORT } from '../engine-settings.js';
import { applyStack } from '../stack.js';
import { deployAndCheck } from '../engine-deploy.js';
import { vmSizeOf } from '../engine-settings.js';
import { StepError } from '../errors.js';
import { applyInstanceFirewall } from '../firewall/instance-firewall.js';
import { architecturesServed } from '../host-network.js';


/**
 * Addresses from the region's pool. The control plane's own records decide first (the
 * addresses live instances hold, in allocateAddresses), then the VMs this host has (a VM
 * directory holding an address is in use, whatever the records say); last, as a check of
 * what neither knows (another control plane on this host), an address that already answers
 * on the bridge is skipped. That probe never leaves the host (address-probe.ts). The free
 * addresses come from this control plane's range of the pool (allocationPool).
 */
export async function allocate(ctx: JobContext, instance: InstanceRow, region: Pick<RegionRow, 'id' | 'target' | 'addressPool'>): Promise<AddressAllocation[]> {
  const network = poolNetwork(region.addressPool);
  const pool = allocationPool(ctx.config.addressRange, region);
  const wanted = wantedAddresses(instance);
  const vmsHere = await vmAddressesOnHost(ctx.config.vmsDir);
  // A floating address the instance already holds answers from its own VM: not a conflict.
  const floatingHeld = new Set((await ctx.repo.listAddresses(instance.id)).filter((a) => a.kind !== 'node').map((a) => a.address));
  const skipped: string[] = [];
  for (let attempt = 0; attempt < 32; attempt++) {
    const given = await ctx.repo.allocateAddresses(instance.id, region.id, pool, wanted, [network.gateway, ...skipped]);
    const taken: string[] = [];
    for (const held of given) {
      // A process VM records the loopback twin it listens on.
      const owner = vmsHere.get(held.address) ?? vmsHere.get(loopbackTwin(held.address));
      if (owner === held.name || floatingHeld.has(held.address)) continue;
      if (owner !== undefined || (await answers(ctx, held.address))) taken.push(held.address);
    }
    if (taken.length === 0) return given;
    ctx.log(`[${instance.id}] ${taken.join(', ')} already in use on this host; taking other addresses`);
    skipped.push(...taken);
    await ctx.repo.releaseAddresses(instance.id, taken);
  }
  throw new StepError('allocate_addresses', `no free address found in ${pool} after skipping ${skipped.length} in use`);
}

async function answers(ctx: JobContext, ip: string): Promise<boolean> {
  const probe = ctx.config.vmKind === 'process' ? { ip: loopbackTwin(ip), port: ENGINE_PORT } : { ip, port: 22 };
  try {
    return await addressAnswers(probe.ip, probe.port, { bridge: ctx.config.bridge });
  } catch (error) {
    if (error instanceof UnroutedAddressError) throw new StepError('allocate_addresses', error.message);
    throw error;
  }
}

/** Address -> VM name of every VM directory under `vmsDir` (vm-create.sh writes `address`). */
async function vmAddressesOnHost(vmsDir: string): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  const entries = await fsp.readdir(vmsDir, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    if (!entry.isDirectory()) continue;
    const address = await fsp.readFile(path.join(vmsDir, entry.name, 'address'), 'utf8').catch(() => '');
    if (address.trim()) found.set(address.trim(), entry.name);
  }
  return found;
}

/** The loopback address a process VM listens on for a pool address (10.77.0.5 -> 127.77.0.5). */
function loopbackTwin(ip: string): string {
  return ['127', ...ip.split('.').slice(1)].join('.');
}

export function provision(ctx: JobContext, payload: ProvisionJob): Promise<Outcome> {
  return runOperation(ctx, payload, {
    kind: 'create',
    work: async ({ instance, region, type, run, write }) => {
      // Guarded in the same statement: a delete asked for since the job was queued wins.
      if (!(await ctx.repo.updateInstance(instance.id, { status: 'creating', fault: null }))) {
        throw new StepError('load', `instance ${instance.id} is being deleted; not provisioning it`);
      }
      if (!architecturesServed(ctx.config).includes(instance.architecture)) {
        throw new StepError('allocate_addresses', 'a standard instance needs VMs with addresses of their own (nspawn); this host runs process VMs');
      }
      // A retry resumes with what the attempt before it allocated (address_allocations keeps it).
      const held = await run.step('allocate_addresses', () => allocate(ctx, instance, region), undefined, { recall: () => ctx.repo.listAddresses(instance.id) });
      const addresses = held.filter((a) => a.kind === 'node').map((a) => a.address);
      // The instance's network is walled off before its VMs boot, so its engine is never
      // reachable without the rules (a rerun replaces them whole).
      await applyInstanceFirewall(ctx, instance.id, region);
      const nodes = await applyStack(ctx, run, instance, region, vmSizeOf(type), addresses);
      await ctx.repo.updateInstance(instance.id, { nodes });
      const deployed = await deployAndCheck(ctx, run, instance, region, nodes);
      // A restore fills the new instance before it is `running`; one that fails fails the create.
      if (payload.restore) await restoreData(ctx, run, instance, region, deployed.nodes ?? nodes, payload.restore);
      await write(deployed);
    },
  });
}
