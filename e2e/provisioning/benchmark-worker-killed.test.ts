// A worker killed in the middle of a benchmark run (issue 13): its client's network namespace
// and cgroup, the peer's namespace and cgroup, and their pool addresses are left behind; a new worker's
// reconciler runs the benchmark again, which first removes what the killed one left (the
// orphaned client process too), and at the end nothing of the run is left on the host.
// The same for encryption-overhead, whose engines run in the peer's place: the retry kills the
// engine the killed worker left, and its data and key files go with the run's directory.
// The same for a per-type report killed mid-suite: the next worker finishes the report and
// deletes its temporary instance; killed again while it deletes it, the one after that
// finishes the report as made; and a report that fails (a worker with no VM image) deletes it
// too.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createDatabase, schema, type Database } from '@basalt/db';
import { namespacePids, namespaceProcesses } from './support/netns.js';
import { startProvisioningPlatform, type ProvisioningPlatform } from './support/stack.js';
import { startWorker, type WorkerProcess } from './support/worker-process.js';

let platform: ProvisioningPlatform;
let database: Database;
const workers: WorkerProcess[] = [];
/** The instance the first test makes; the encryption-overhead test measures beside it too. */
let benchInstance = '';

beforeAll(async () => {
  platform = await startProvisioningPlatform('prov_bench_kill', {}, { worker: false });
  database = createDatabase(platform.databaseUrl, { max: 2 });
});

afterAll(async () => {
  await database?.close();
  // The platform's stop deletes what is left through a worker: the last one still runs.
  await platform?.stop();
  for (const worker of workers) await worker.kill('SIGKILL');
});

const netns = () => execFileSync('ip', ['netns', 'list'], { encoding: 'utf8' });
/** Whether a process (the suite's client, during a scenario) runs in the run's client namespace. */
function clientRuns(hex: string): boolean {
  return namespacePids(`basalt-bench-${hex}`).length > 0;
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('a worker killed mid-benchmark', () => {
  test('leaves namespaces that the retry removes before it runs the suite again', { timeout: 600_000 }, async () => {
    workers.push(startWorker(platform.databaseUrl, platform.dataDir, 'first'));
    const project = platform.projectId;
    const created = await platform.client.POST('/v1/projects/{project}/instances', {
      params: { path: { project } },
      body: { name: 'bench-kill', instance_type: 'kv.standard.small', region: 'local', engine_version: '1.0', tls_enabled: false, deletion_protection: false },
    });
    const instance = created.data!.instance.id;
    benchInstance = instance;
    await platform.waitForStatus(instance, ['running'], 300_000);
    // canonical: the shortest suite with a peer (memcached), so the retry runs it whole in seconds.
    const asked = await platform.client.POST('/v1/projects/{project}/instances/{instance}/benchmarks', { params: { path: { project, instance } }, body: { workload: 'canonical' } });
    const runId = asked.data!.benchmark.id;
    const hex = runId.replace(/-/g, '').slice(0, 12);
    // Kill the worker once the peer exists and the client runs a scenario.
    const deadline = Date.now() + 120_000;
    while (!(netns().includes(`basalt-peer-${hex}`) && clientRuns(hex))) {
      expect(Date.now()).toBeLessThan(deadline);
      await sleep(50);
    }
    // The client the killed worker leaves runs in the run's own cgroup (issue 43).
    const clientCgroup = [`/sys/fs/cgroup/basalt/basalt-bench-${hex}`, `/sys/fs/cgroup/memory/basalt/basalt-bench-${hex}`].find((dir) => fs.existsSync(dir));
    expect(clientCgroup, 'the client cgroup').toBeDefined();
    await workers[0]!.kill('SIGKILL');
    const [left] = await database.db.select().from(schema.benchmarks).where(eq(schema.benchmarks.id, runId));
    expect(left).toMatchObject({ status: 'running', clientNamespace: `basalt-bench-${hex}`, peerNamespace: `basalt-peer-${hex}` });
    expect(netns()).toContain(`basalt-bench-${hex}`);
    expect(netns()).toContain(`basalt-peer-${hex}`);

    workers.push(startWorker(platform.databaseUrl, platform.dataDir, 'second'));
    const operation = await platform.waitForOperation(asked.data!.operation.id, 300_000);
    expect(operation.status, `${JSON.stringify(operation.error)}\n${workers[1]!.log().slice(-3000)}`).toBe('succeeded');
    expect(workers[1]!.log()).toMatch(new RegExp(`reconciled benchmark operation ${asked.data!.operation.id}: succeeded`));
    const [done] = await database.db.select().from(schema.benchmarks).where(eq(schema.benchmarks.id, runId));
    expect(done, JSON.stringify(done)).toMatchObject({ status: 'succeeded', clientAddress: null, clientNamespace: null, peerAddress: null, peerNamespace: null });
    expect(netns()).not.toContain(hex);
    expect(execFileSync('ip', ['-br', 'link'], { encoding: 'utf8' })).not.toContain(hex);
    // The peer's cgroup and the client's (issue 43) are gone with their processes (v2 or v1 layout).
    for (const who of ['peer', 'bench']) {
      for (const dir of [`/sys/fs/cgroup/basalt/basalt-${who}-${hex}`, `/sys/fs/cgroup/cpu/basalt/basalt-${who}-${hex}`, `/sys/fs/cgroup/memory/basalt/basalt-${who}-${hex}`]) expect(fs.existsSync(dir), dir).toBe(false);
    }
  });

  test('encryption-overhead: the retry kills the engine the killed worker left and removes its files', { timeout: 400_000 }, async () => {
    const project = platform.projectId;
    const asked = await platform.client.POST('/v1/projects/{project}/instances/{instance}/benchmarks', { params: { path: { project, instance: benchInstance } }, body: { workload: 'encryption-overhead' } });
    expect(asked.response.status, JSON.stringify(asked.error)).toBe(202);
    const runId = asked.data!.benchmark.id;
    const operationId = asked.data!.operation.id;
    const hex = runId.replace(/-/g, '').slice(0, 12);
    const engineDir = path.join(platform.dataDir, 'runs', benchInstance, operationId, 'benchmark', 'engine');
    const enginePids = () => namespaceProcesses(`basalt-peer-${hex}`, 'basalt-server');
    // Kill the worker while an engine with encryption at rest serves (its key file is in the run's directory).
    const deadline = Date.now() + 180_000;
    while (!(enginePids().length > 0 && fs.existsSync(path.join(engineDir, 'at-rest.key')))) {
      expect(Date.now()).toBeLessThan(deadline);
      await sleep(100);
    }
    const left = enginePids();
    await workers[workers.length - 1]!.kill('SIGKILL');
    expect(left.every((pid) => fs.existsSync(`/proc/${pid}`))).toBe(true);
    expect((fs.statSync(path.join(engineDir, 'at-rest.key')).mode & 0o777).toString(8)).toBe('600');

    workers.push(startWorker(platform.databaseUrl, platform.dataDir, 'after-engine-kill'));
    const operation = await platform.waitForOperation(operationId, 300_000);
    const next = workers[workers.length - 1]!;
    expect(operation.status, `${JSON.stringify(operation.error)}\n${next.log().slice(-3000)}`).toBe('succeeded');
    // The engine the killed worker left was killed before the retry measured anything.
    for (const pid of left) expect(fs.existsSync(`/proc/${pid}`), `engine ${pid} left running`).toBe(false);
    const [done] = await database.db.select().from(schema.benchmarks).where(eq(schema.benchmarks.id, runId));
    expect(done).toMatchObject({ status: 'succeeded', clientNamespace: null, peerAddress: null, peerNamespace: null });
    expect(netns()).not.toContain(hex);
    for (const dir of [`/sys/fs/cgroup/basalt/basalt-peer-${hex}`, `/sys/fs/cgroup/cpu/basalt/basalt-peer-${hex}`, `/sys/fs/cgroup/memory/basalt/basalt-peer-${hex}`]) expect(fs.existsSync(dir)).toBe(false);
    expect(fs.existsSync(path.dirname(engineDir))).toBe(false);
    const scenarios = await database.db.select().from(schema.benchmarkScenarios).where(eq(schema.benchmarkScenarios.benchmarkId, runId));
    // A row per variant and value size, each its median round's with every round beside it.
    expect(scenarios).toHaveLength(8);
    for (const s of scenarios) expect((s.report as { rounds?: unknown[] }).rounds, s.name).toHaveLength(3);
  });

  test('a per-type report killed mid-suite is finished by the next worker, which deletes its temporary instance', { timeout: 600_000 }, async () => {
    const asked = await platform.client.POST('/v1/instance-types/{id}/benchmarks', { params: { path: { id: 'kv.standard.small' } }, body: { suites: ['canonical'] } });
    expect(asked.response.status, JSON.stringify(asked.error)).toBe(202);
    const reportPath = { params: { path: { id: 'kv.standard.small', report: asked.data!.report.id } } };
    const instanceId = asked.data!.report.instance!.id;
    // Kill the worker running it once the suite's client runs a scenario.
    const deadline = Date.now() + 300_000;
    let hex = '';
    while (!hex || !clientRuns(hex)) {
      expect(Date.now()).toBeLessThan(deadline);
      const run = (await platform.client.GET('/v1/instance-types/{id}/benchmarks/{report}', reportPath)).data!.report.runs[0];
      if (run) hex = run.id.replace(/-/g, '').slice(0, 12);
      await sleep(50);
    }
    const running = workers[workers.length - 1]!;
    await running.kill('SIGKILL');
    expect((await platform.client.GET('/v1/instance-types/{id}/benchmarks/{report}', reportPath)).data!.report.status).toBe('running');

    workers.push(startWorker(platform.databaseUrl, platform.dataDir, 'after-report-kill'));
    // That worker is killed too once the report is made and stored, while it deletes the
    // temporary instance (issue 45: the next attempt marked such a report failed, as if the
    // instance had gone before the report was made).
    const operationPath = { params: { path: { id: asked.data!.operation.id } } };
    for (;;) {
      expect(Date.now()).toBeLessThan(deadline + 300_000);
      const steps = (await platform.client.GET('/v1/operations/{id}', operationPath)).data!;
      expect(steps.status, 'the report ended before its delete could be interrupted').toBe('running');
      if (steps.steps.find((s) => s.name === 'delete_instance')?.status === 'running') break;
      await sleep(50);
    }
    await workers[workers.length - 1]!.kill('SIGKILL');
    workers.push(startWorker(platform.databaseUrl, platform.dataDir, 'after-delete-kill'));
    const operation = await platform.waitForOperation(asked.data!.operation.id, 400_000);
    const next = workers[workers.length - 1]!;
    expect(operation.status, `${JSON.stringify(operation.error)}\n${next.log().slice(-3000)}`).toBe('succeeded');
    expect(next.log()).toMatch(new RegExp(`reconciled benchmark_report operation ${asked.data!.operation.id}: succeeded`));
    const report = (await platform.client.GET('/v1/instance-types/{id}/benchmarks/{report}', reportPath)).data!.report;
    expect(report).toMatchObject({ status: 'succeeded', instance: { id: instanceId, status: 'deleted' } });
    expect(report.runs[0]!.scenarios.filter((s) => s.server === 'basalt')).toHaveLength(2);
    expect(fs.readdirSync(`${platform.dataDir}/vms`).filter((vm) => vm.startsWith(instanceId))).toEqual([]);
    expect(netns()).not.toContain(hex);
  });

  test('a per-type report that fails still deletes its temporary instance', { timeout: 300_000 }, async () => {
    await workers[workers.length - 1]!.kill('SIGTERM');
    workers.push(startWorker(platform.databaseUrl, platform.dataDir, 'no-image', { BASALT_VM_IMAGE: path.join(platform.dataDir, 'no-such-image'), BASALT_LOCAL_VM_KIND: 'nspawn' }));
    const asked = await platform.client.POST('/v1/instance-types/{id}/benchmarks', { params: { path: { id: 'kv.standard.small' } }, body: { suites: ['memtier-standard'] } });
    expect(asked.response.status, JSON.stringify(asked.error)).toBe(202);
    const operation = await platform.waitForOperation(asked.data!.operation.id, 240_000);
    expect(operation.status).toBe('failed');
    expect(operation.error).toMatchObject({ step: 'create_instance', message: expect.stringMatching(/^create operation \S+ failed: /) });
    const report = (await platform.client.GET('/v1/instance-types/{id}/benchmarks/{report}', { params: { path: { id: 'kv.standard.small', report: asked.data!.report.id } } })).data!.report;
    expect(report).toMatchObject({ status: 'failed', headline: null, instance: { status: 'deleted' } });
    expect(operation.steps.find((s) => s.name === 'delete_instance')?.status).toBe('succeeded');
    // The failed report leaves the catalog's figures to the report that succeeded.
    expect((await platform.client.GET('/v1/instance-types/{id}/benchmarks/latest', { params: { path: { id: 'kv.standard.small' } } })).data!.report.status).toBe('succeeded');
  });
});
