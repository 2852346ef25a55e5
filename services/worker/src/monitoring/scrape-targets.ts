// Prometheus' scrape targets, one file per instance in `<sd dir>/targets/<instance id>.json`
// (file-based service discovery: Prometheus notices a written, replaced or removed file by
// itself, no reload). A file lists every node's admin port with the labels the API's queries
// select on (basalt_instance, basalt_project) and the node's name and role.
//
// syncScrapeTargets(ctx, instanceId) is the one call that makes the file match the instance
// row: after create, resize, restart and delete (runOperation calls it when any operation ends)
// and after a failover moved roles or addresses (the failover monitor calls it).
import fs from 'node:fs/promises';
import path from 'node:path';
import type { InstanceNode, InstanceRow } from '@basalt/db';
import type { JobContext } from '../context.js';
import { requireHostRoute } from '../host-route.js';
import { ENGINE_ADMIN_PORT } from './monitoring-config.js';

/** Statuses in which the engine runs and is scraped (a running instance being changed still serves). */
const SCRAPED_STATUSES: ReadonlySet<InstanceRow['status']> = new Set(['running', 'modifying', 'restarting']);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export interface TargetGroup {
  targets: string[];
  labels: Record<string, string>;
}

function targetsDir(sdDir: string): string {
  return path.join(sdDir, 'targets');
}

export function targetsFile(sdDir: string, instanceId: string): string {
  if (!UUID.test(instanceId)) throw new Error(`not an instance id: ${JSON.stringify(instanceId)}`);
  return path.join(targetsDir(sdDir), `${instanceId}.json`);
}

/** The target groups of an instance: one per node Prometheus may reach (loopback or the bridge). */
export async function targetGroupsOf(instance: InstanceRow, reachable: (ip: string) => Promise<boolean>): Promise<TargetGroup[]> {
  if (!SCRAPED_STATUSES.has(instance.status)) return [];
  const nodes = (Array.isArray(instance.nodes) ? instance.nodes : []) as InstanceNode[];
  const groups: TargetGroup[] = [];
  for (const node of nodes) {
    if (!node.private_ip || !(await reachable(node.private_ip))) continue;
    groups.push({
      targets: [`${node.private_ip}:${ENGINE_ADMIN_PORT}`],
      labels: { basalt_instance: instance.id, basalt_project: instance.projectId, basalt_node: node.name, basalt_role: node.role },
    });
  }
  return groups;
}

/** Writes (atomically: a temp file renamed over it) or removes the instance's targets file. */
async function writeTargets(sdDir: string, instanceId: string, groups: TargetGroup[]): Promise<void> {
  const file = targetsFile(sdDir, instanceId);
  if (groups.length === 0) {
    await fs.rm(file, { force: true });
    return;
  }
  await fs.mkdir(targetsDir(sdDir), { recursive: true, mode: 0o700 });
  // Prometheus reads `*.json` only: the temp name does not match until the rename.
  const temp = `${file}.${process.pid}.tmp`;
  await fs.writeFile(temp, `${JSON.stringify(groups, null, 2)}\n`, { mode: 0o600 });
  await fs.rename(temp, file);
}

/** Makes the instance's targets file match its row (removed when it is not running or gone). */
export async function syncScrapeTargets(ctx: JobContext, instanceId: string): Promise<void> {
  const monitoring = ctx.config.monitoring;
  if (!monitoring) return;
  const instance = await ctx.repo.getInstance(instanceId);
  const reachable = async (ip: string) => {
    try {
      await requireHostRoute(ip, ctx.config.bridge);
      return true;
    } catch (error) {
      ctx.log(`[${instanceId}] not scraped at ${ip}: ${(error as Error).message}`);
      return false;
    }
  };
  const groups = instance ? await targetGroupsOf(instance, reachable) : [];
  await writeTargets(monitoring.sdDir, instanceId, groups);
}

/** At start: every running instance gets its file, and files of instances that no longer run go. */
export async function reconcileScrapeTargets(ctx: JobContext): Promise<void> {
  const monitoring = ctx.config.monitoring;
  if (!monitoring) return;
  const running = await ctx.repo.listRunningInstances();
  const present = await fs.readdir(targetsDir(monitoring.sdDir)).catch(() => [] as string[]);
  const ids = new Set([...running.map((i) => i.id), ...present.filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5))]);
  for (const id of ids) {
    if (UUID.test(id)) await syncScrapeTargets(ctx, id).catch((error) => ctx.log(`[${id}] scrape targets: ${(error as Error).message}`));
  }
}
