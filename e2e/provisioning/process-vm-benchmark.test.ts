// Benchmarks of an instance on a process VM (the local region's fallback without nspawn, forced
// with BASALT_LOCAL_VM_KIND=process), through the API and the real worker: the run's other
// server goes where the instance is, a process on a loopback address of this host. canonical
// runs beside memcached there, and encryption-overhead starts its engines there (TLS and at rest
// really on, as the engines' own INFO says); afterwards nothing of them is left running. The
// client runs in a cgroup of its own named for the run (issue 43), gone when the run ends.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ENCRYPTION_VARIANTS, type EncryptionVariant } from '@basalt/api-client/rules';
import { startProvisioningPlatform, type ProvisioningPlatform } from './support/stack.js';

let platform: ProvisioningPlatform;
let instanceId = '';

beforeAll(async () => {
  platform = await startProvisioningPlatform('prov_procbench', { BASALT_LOCAL_VM_KIND: 'process' });
  const { data, response } = await platform.client.POST('/v1/projects/{project}/instances', {
    params: { path: { project: platform.projectId } },
    body: { name: 'on-loopback', instance_type: 'kv.standard.small', region: 'local', engine_version: '1.0', tls_enabled: false, deletion_protection: false },
  });
  expect(response.status).toBe(202);
  instanceId = data!.instance.id;
  await platform.waitForStatus(instanceId, ['running'], 240_000);
});

afterAll(async () => {
  await platform?.stop();
});

/** `during` runs beside the suite, given the run's id. */
async function runSuite(workload: 'canonical' | 'encryption-overhead', during?: (benchmarkId: string) => Promise<void>) {
  const path_ = { project: platform.projectId, instance: instanceId };
  const { data, response, error } = await platform.client.POST('/v1/projects/{project}/instances/{instance}/benchmarks', { params: { path: path_ }, body: { workload } });
  expect(response.status, JSON.stringify(error)).toBe(202);
  const watched = during?.(data!.benchmark.id);
  const operation = await platform.waitForOperation(data!.operation.id, 360_000);
  await watched;
  expect(operation.status, JSON.stringify(operation.error) + platform.workerLog().slice(-3000)).toBe('succeeded');
  const { data: run } = await platform.client.GET('/v1/projects/{project}/instances/{instance}/benchmarks/{benchmark}', { params: { path: { ...path_, benchmark: data!.benchmark.id } } });
  return run!;
}

/**
 * This platform's run servers still running: a peer on the run's loopback slot (the 127.78.x.y
 * its placement names: other stacks on this host may run slots of their own meanwhile), or an
 * engine with its config in a run directory of this platform.
 */
const slotProcesses = (placement: string | undefined) => {
  const slot = /127\.78\.\d+\.\d+/.exec(placement ?? '')?.[0];
  expect(slot, `a loopback slot in the placement: ${placement}`).toBeDefined();
  const onSlot = new RegExp(`(^|[^\\d.])${slot!.replace(/\./g, '\\.')}($|[^\\d.])`);
  return execFileSync('ps', ['-eo', 'args='], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => (/^(redis-server|memcached) /.test(line) && onSlot.test(line)) || line.includes(`--config ${path.join(platform.dataDir, 'runs')}/`));
};

/** The run's client cgroup directories (cgroup v2, or v1's memory and cpu controllers). */
const clientCgroupDirs = (benchmarkId: string) => {
  const name = `basalt-bench-${benchmarkId.replace(/-/g, '').slice(0, 12)}`;
  return { name, dirs: [`/sys/fs/cgroup/basalt/${name}`, `/sys/fs/cgroup/memory/basalt/${name}`, `/sys/fs/cgroup/cpu/basalt/${name}`] };
};

/** Waits for a client in the run's cgroup and checks it is basalt-bench, in that cgroup by its own account. */
async function clientInItsCgroup(benchmarkId: string): Promise<void> {
  const { name, dirs } = clientCgroupDirs(benchmarkId);
  const deadline = Date.now() + 120_000;
  for (;;) {
    const procs = dirs.map((dir) => path.join(dir, 'cgroup.procs')).find((file) => fs.existsSync(file));
    const pid = procs ? fs.readFileSync(procs, 'utf8').split('\n').find((line) => /^\d+$/.test(line)) : undefined;
    // Between scenarios the client may be gone by the time its files are read.
    const [comm, cgroup] = pid ? [`/proc/${pid}/comm`, `/proc/${pid}/cgroup`].map((file) => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '')) : ['', ''];
    if (comm!.trim() === 'basalt-bench') {
      expect(cgroup).toMatch(new RegExp(`:/basalt/${name}$`, 'm'));
      return;
    }
    expect(Date.now(), `no basalt-bench in cgroup ${name}`).toBeLessThan(deadline);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('benchmarks of an instance on a process VM', () => {
  test('canonical runs beside memcached on loopback: a peer figure for every scenario', { timeout: 400_000 }, async () => {
    const run = await runSuite('canonical', clientInItsCgroup);
    for (const dir of clientCgroupDirs(run.id).dirs) expect(fs.existsSync(dir), dir).toBe(false);
    const results = run.results as { peer: { server: string; placement: string } | null; client: { network_namespace: boolean } };
    // The instance is a process VM: the client runs on this host, not in a namespace on the bridge.
    expect(results.client.network_namespace).toBe(false);
    expect(results.peer?.server).toBe('memcached');
    expect(results.peer?.placement).toMatch(/^memcached on this host at 127\.78\.\d+\.\d+ \(loopback\)/);
    const servers = run.scenarios.map((s) => s.server);
    expect(servers.filter((s) => s === 'memcached')).toHaveLength(servers.filter((s) => s === 'basalt').length);
    for (const s of run.scenarios) expect(s.errors, `${s.server} ${s.name}`).toBe(0);
    expect(slotProcesses(results.peer?.placement)).toEqual([]);
  });

  test('encryption-overhead starts its engines on loopback, each encrypted as it says', { timeout: 400_000 }, async () => {
    const run = await runSuite('encryption-overhead');
    const results = run.results as { engines: { placement: string } | null };
    expect(results.engines?.placement).toMatch(/^basalt-server \(.*\) on this host at 127\.78\.\d+\.\d+ \(loopback\)/);
    expect(run.scenarios).toHaveLength(8);
    for (const s of run.scenarios) {
      const enc = (s.report as { encryption: EncryptionVariant & { engine_info: Record<string, string>; keys_in_clear_on_disk: boolean } }).encryption;
      expect(enc.engine_info).toEqual({ tls_port: enc.tls ? '6380' : '0', plaintext_port: enc.tls ? '0' : '6379', encryption_at_rest: enc.at_rest ? 'on' : 'off' });
      expect(enc.keys_in_clear_on_disk, s.name).toBe(!enc.at_rest);
      expect(s.errors, s.name).toBe(0);
    }
    expect(new Set(run.scenarios.map((s) => JSON.stringify(s.encryption)))).toEqual(new Set(ENCRYPTION_VARIANTS.map((v) => JSON.stringify({ tls: v.tls, at_rest: v.at_rest }))));
    expect(slotProcesses(results.engines?.placement)).toEqual([]);
    expect(fs.readdirSync(path.join(platform.dataDir, 'runs', 'loopback-slots'))).toEqual([]);
  });
});
