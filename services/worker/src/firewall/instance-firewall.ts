// The worker keeps each instance's firewall (render.ts) in step with PostgreSQL: applied
// before the instance's engine is reachable (provision, before its VMs boot), again whenever
// its addresses or allowlist change (allowlist updates, modify, a failover's rebuild), and
// removed with the instance. At start the worker reconciles: every instance this control
// plane knows gets its rules again and the tables of its deleted instances go, so a worker
// killed mid-way leaves nothing a rerun does not finish. Tables of instances it does not know
// (another control plane on this host) are left alone.
// Region `local` with nspawn VMs only: process VMs have no network of their own (the engine's
// allowlist is their only wall), and a cloud's security groups are Terraform's (aws module).
import type { RegionRow } from '@basalt/db';
import type { JobContext } from '../context.js';
import { instanceIdOfTable, renderApply, renderReleaseAddresses, renderRemove, tableName } from './render.js';
import { listNodeSets, listTables, runNftScript } from './nft.js';

export function firewallApplies(ctx: JobContext, region: Pick<RegionRow, 'target'>): boolean {
  return region.target === 'local' && ctx.config.vmKind === 'nspawn';
}

/** Replaces the instance's rules with what PostgreSQL says now (its addresses, its allowlist). */
export async function applyInstanceFirewall(ctx: JobContext, instanceId: string, region: Pick<RegionRow, 'target'>): Promise<void> {
  if (!firewallApplies(ctx, region)) return;
  const [addresses, allowlist] = await Promise.all([ctx.repo.listAddresses(instanceId), ctx.repo.listAllowlist(instanceId)]);
  await releaseFromStaleTables(ctx, instanceId, addresses.map((a) => a.address));
  await runNftScript(
    renderApply({
      instanceId,
      bridge: ctx.config.bridge,
      addresses: addresses.map((a) => a.address),
      allowlist: allowlist.map((entry) => entry.cidr),
    }),
  );
}

/**
 * The allocator gave this instance its addresses because nothing on this host uses them (no VM
 * directory, nothing answering on the bridge), so another table that still names one is stale:
 * the address leaves that table, and only that address. Best effort: a table that changes
 * meanwhile is being rewritten by its own worker.
 */
async function releaseFromStaleTables(ctx: JobContext, instanceId: string, addresses: string[]): Promise<void> {
  const own = tableName(instanceId);
  const held = new Set(addresses);
  for (const family of ['bridge', 'inet'] as const) {
    for (const set of await listNodeSets(family)) {
      const stale = set.addresses.filter((address) => held.has(address));
      if (set.table === own || stale.length === 0) continue;
      ctx.log(`[${instanceId}] firewall: ${stale.join(', ')} taken out of stale table ${family} ${set.table}`);
      await runNftScript(renderReleaseAddresses(family, set.table, stale)).catch((error: Error) => ctx.log(`[${instanceId}] firewall: ${error.message}`));
    }
  }
}

/** Removes the instance's rules; nothing to do when they are gone already. */
export async function removeInstanceFirewall(ctx: JobContext, instanceId: string, region: Pick<RegionRow, 'target'>): Promise<void> {
  if (!firewallApplies(ctx, region)) return;
  await runNftScript(renderRemove(instanceId));
}

/** At worker start: the rules of every instance this control plane knows match PostgreSQL. */
export async function reconcileFirewalls(ctx: JobContext): Promise<void> {
  const regions = new Map((await ctx.catalog.listRegions()).map((region) => [region.id, region]));
  if (![...regions.values()].some((region) => firewallApplies(ctx, region))) return;
  const present = new Set([...(await listTables('bridge')), ...(await listTables('inet'))].flatMap((name) => instanceIdOfTable(name) ?? []));
  const ids = new Set([...(await ctx.repo.listRunningInstances()).map((i) => i.id), ...present]);
  for (const id of ids) {
    const instance = await ctx.repo.getInstance(id);
    const region = instance && regions.get(instance.region);
    if (!instance || !region) continue;
    try {
      if (instance.status === 'deleted') await removeInstanceFirewall(ctx, id, region);
      else await applyInstanceFirewall(ctx, id, region);
    } catch (error) {
      ctx.log(`[${id}] firewall: ${(error as Error).message}`);
    }
  }
}
