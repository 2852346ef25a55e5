// A per-type benchmark report through the API and the real worker (issue 13), nothing written
// into a table by the test: an administrator asks for a report of kv.standard.small with
// memtier-standard only (the suite is already the shortened matrix: 6 scenarios, each beside
// Redis), the worker provisions a temporary instance in the platform's project, runs the suite,
// renders the report and deletes the instance. Then: the latest report with its runs and
// headline, its report.md, the catalog's reference figures, no instance, VM or namespace left,
// and a non-administrator refused.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createBasaltClient, type BasaltClient, type Schemas } from '@basalt/api-client';
import { startProvisioningPlatform, type ProvisioningPlatform } from './support/stack.js';

type Report = Schemas['InstanceTypeReportDto'];
const TYPE = 'kv.standard.small';

let platform: ProvisioningPlatform;
let customer: BasaltClient;
let report: Report | undefined;

beforeAll(async () => {
  platform = await startProvisioningPlatform('prov_type_report');
  const email = 'customer@e2e.test';
  const password = `pw-${Math.random().toString(36).slice(2)}`;
  expect((await platform.client.POST('/v1/users', { body: { email, password } })).response.status).toBe(201);
  const login = await createBasaltClient({ baseUrl: platform.apiUrl }).POST('/v1/auth/login', { body: { email, password } });
  customer = createBasaltClient({ baseUrl: platform.apiUrl, sessionCookie: (login.response.headers.get('set-cookie') ?? '').split(';')[0]! });
});

afterAll(async () => {
  // A report that is still running deletes its instance itself: let it finish before the platform stops.
  if (report && (report.status === 'pending' || report.status === 'running')) await waitForReport(report.id, 600_000).catch(() => {});
  await platform?.stop();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function getReport(id: string): Promise<Report> {
  const { data, response } = await platform.client.GET('/v1/instance-types/{id}/benchmarks/{report}', { params: { path: { id: TYPE, report: id } } });
  if (!data) throw new Error(`GET report: ${response.status}`);
  return data.report;
}

async function waitForReport(id: string, timeoutMs: number): Promise<Report> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const current = await getReport(id);
    if (current.status !== 'pending' && current.status !== 'running') return current;
    if (Date.now() > deadline) throw new Error(`report ${id} still ${current.status} after ${timeoutMs} ms\n${platform.workerLog().slice(-3000)}`);
    await sleep(1_000);
  }
}

describe('a per-type benchmark report', () => {
  test('only an administrator may ask for one', async () => {
    const refused = await customer.POST('/v1/instance-types/{id}/benchmarks', { params: { path: { id: TYPE } }, body: { suites: ['memtier-standard'] } });
    expect(refused.response.status).toBe(403);
    expect(refused.error?.code).toBe('forbidden');
  });

  test('is made on a temporary instance, served with its runs and headline, and the instance is gone after', { timeout: 900_000 }, async () => {
    const started = Date.now();
    const asked = await platform.client.POST('/v1/instance-types/{id}/benchmarks', { params: { path: { id: TYPE } }, body: { suites: ['memtier-standard'] } });
    expect(asked.response.status, JSON.stringify(asked.error)).toBe(202);
    report = asked.data!.report;
    const instanceId = report.instance!.id;
    report = await waitForReport(report.id, 780_000);
    expect(report.status, platform.workerLog().slice(-4000)).toBe('succeeded');
    console.log(`report of ${TYPE} (memtier-standard) made in ${Math.round((Date.now() - started) / 1000)} s`);

    // The latest report, as any signed-in caller reads it.
    const latest = (await customer.GET('/v1/instance-types/{id}/benchmarks/latest', { params: { path: { id: TYPE } } })).data!.report;
    expect(latest.id).toBe(report.id);
    expect(latest.suites).toEqual(['memtier-standard']);
    expect(latest.runs).toHaveLength(1);
    const run = latest.runs[0]!;
    expect(run).toMatchObject({ workload: 'memtier-standard', status: 'succeeded', instance_id: instanceId });
    const mine = run.scenarios.filter((s) => s.server === 'basalt');
    expect(mine).toHaveLength(6);
    expect(run.scenarios.filter((s) => s.server === 'redis')).toHaveLength(6);
    expect(latest.peers).toEqual([{ server: 'redis', version: expect.stringMatching(/^Redis 7/) }]);
    expect(latest.engine_version).toBe(mine[0]!.engine_version);
    expect(latest.environment).toMatch(/shared host/);
    // The headline is the rows' figures, not anything written by hand.
    const read = mine.find((s) => s.workload === 'read-only' && s.value_size === 128)!;
    const write = mine.find((s) => s.workload === 'write-only' && s.value_size === 128)!;
    expect(latest.headline).toMatchObject({ reads_per_sec: read.qps, writes_per_sec: write.qps, p99_latency_ms: read.p99_latency_ms });
    expect(latest.headline!.peer_ratio).toBeGreaterThan(0);
    for (const s of mine) expect(s.errors).toBe(0);

    // The white paper.
    const markdown = await customer.GET('/v1/instance-types/{id}/benchmarks/latest/report.md', { params: { path: { id: TYPE } }, parseAs: 'text' });
    expect(markdown.response.status).toBe(200);
    expect(markdown.response.headers.get('content-type')).toMatch(/^text\/markdown/);
    const text = markdown.data as unknown as string;
    expect(text).toContain(`# Basalt benchmark report: ${TYPE}`);
    expect(text).toContain('## Conclusions (computed from the tables)');
    expect(text).toMatch(/memtier-standard: Basalt's throughput was [\d.]+× Redis 7/);
    expect(text).toContain(read.command_line);
    const byId = await customer.GET('/v1/instance-types/{id}/benchmarks/{report}/report.md', { params: { path: { id: TYPE, report: report.id } }, parseAs: 'text' });
    expect(byId.data).toBe(text);

    // The catalog's figures are this report's; a type without a report shows none.
    const catalog = (await customer.GET('/v1/instance-types')).data!.items;
    expect(catalog.find((t) => t.id === TYPE)!.reference).toEqual({
      report_id: report.id,
      published_at: report.finished_at,
      reads_per_sec: read.qps,
      writes_per_sec: write.qps,
      p99_latency_ms: read.p99_latency_ms,
    });
    expect(catalog.find((t) => t.id === 'kv.standard.large')!.reference).toBeNull();

    // The temporary instance is deleted, in no project the admin or the customer sees, and
    // nothing of it or of the run is left on the host.
    expect(latest.instance).toEqual({ id: instanceId, status: 'deleted' });
    for (const client of [platform.client, customer]) {
      for (const project of (await client.GET('/v1/projects')).data!.items) {
        const instances = (await client.GET('/v1/projects/{project}/instances', { params: { path: { project: project.id } } })).data!.items;
        expect(instances.map((i) => i.id)).not.toContain(instanceId);
      }
    }
    expect(fs.readdirSync(path.join(platform.dataDir, 'vms')).filter((vm) => vm.startsWith(instanceId))).toEqual([]);
    const hex = run.id.replace(/-/g, '').slice(0, 12);
    expect(execFileSync('ip', ['netns', 'list'], { encoding: 'utf8' })).not.toMatch(new RegExp(`basalt-(bench|peer)-${hex}`));
  });
});
