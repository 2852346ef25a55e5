// Per-type benchmark reports through the API, without a worker (the report stays pending):
// who may ask for one, what a request may hold, what a reader sees, and that the temporary
// instance lives in the platform's own project, which no customer (nor an admin) sees. And the
// committed reports (docs/benchmarks/*.json), which the API's start loads into the catalog.
// e2e/provisioning/type-report.test.ts runs the whole report with the real worker.
import fs from 'node:fs';
import { renderBenchmarkReport, type TypeReportDocument } from '@basalt/api-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type RunningApi } from './support/api-process.js';
import { anonymous, type Caller, loginAdmin, newUser, query } from './support/clients.js';

let api: RunningApi;
let admin: Caller;
let customer: Caller;

beforeAll(async () => {
  api = await startApi();
  admin = await loginAdmin(api);
  customer = await newUser(api, admin);
});
afterAll(async () => {
  await api?.stop();
});

const path = (id: string) => ({ params: { path: { id } } });

describe('per-type benchmark reports', () => {
  it('refuses a request from anyone but an administrator, and bad input, with {code, message, request_id}', async () => {
    const byCustomer = await customer.client.POST('/v1/instance-types/{id}/benchmarks', { ...path('kv.standard.small'), body: {} });
    expect(byCustomer.response.status).toBe(403);
    expect(byCustomer.error).toMatchObject({ code: 'forbidden', request_id: expect.any(String) });
    expect((await anonymous(api).POST('/v1/instance-types/{id}/benchmarks', { ...path('kv.standard.small'), body: {} })).response.status).toBe(401);
    const bad = async (body: unknown) => (await admin.client.POST('/v1/instance-types/{id}/benchmarks', { ...path('kv.standard.small'), body: body as never })).response.status;
    expect(await bad({ suites: ['custom'] })).toBe(400);
    expect(await bad({ suites: [] })).toBe(400);
    expect(await bad({ suites: ['memtier-standard', 'memtier-standard'] })).toBe(400);
    expect(await bad({ suites: 'memtier-standard' })).toBe(400);
    expect(await bad({ suites: ['memtier-standard'], flags: ['--ratio=1:1'] })).toBe(400);
    const unknownType = await admin.client.POST('/v1/instance-types/{id}/benchmarks', { ...path('kv.standard.huge'), body: {} });
    expect(unknownType.response.status).toBe(404);
    expect((await admin.client.GET('/v1/instance-types/{id}/benchmarks/{report}', { params: { path: { id: 'kv.standard.small', report: 'latest-but-not' } } })).response.status).toBe(400);
    expect(await query(api, "SELECT id FROM instance_type_reports WHERE origin = 'local'")).toEqual([]);
  });

  it('queues a report on a temporary instance in the platform project; one at a time per type; readers see its progress', async () => {
    const asked = await admin.client.POST('/v1/instance-types/{id}/benchmarks', { ...path('kv.standard.small'), body: { suites: ['ycsb-standard', 'memtier-standard'] } });
    expect(asked.response.status, JSON.stringify(asked.error)).toBe(202);
    const report = asked.data!.report;
    // Standard order whatever the request's: memtier-standard first, on the VM as it was made.
    expect(report).toMatchObject({ instance_type: 'kv.standard.small', status: 'pending', suites: ['memtier-standard', 'ycsb-standard'], headline: null, runs: [] });
    expect(report.instance?.status).toBe('creating');
    expect(asked.data!.operation).toMatchObject({ type: 'benchmark_report', status: 'pending', instance_id: report.instance!.id });
    const [job] = await query(api, "SELECT data FROM pgboss.job WHERE name = 'instance-type-report'");
    expect(job.data).toMatchObject({ report_id: report.id, operation_id: asked.data!.operation.id, instance_id: report.instance!.id });

    const again = await admin.client.POST('/v1/instance-types/{id}/benchmarks', { ...path('kv.standard.small'), body: {} });
    expect(again.response.status).toBe(409);
    expect(again.error?.code).toBe('report_in_progress');
    // Another type is measured independently.
    expect((await admin.client.POST('/v1/instance-types/{id}/benchmarks', { ...path('kv.standard.large'), body: {} })).response.status).toBe(202);

    // Any signed-in caller reads reports; none has succeeded yet.
    const list = await customer.client.GET('/v1/instance-types/{id}/benchmarks', path('kv.standard.small'));
    expect(list.data!.items.map((r) => [r.id, r.origin])).toEqual([[report.id, 'local'], [expect.any(String), 'published']]);
    const one = await customer.client.GET('/v1/instance-types/{id}/benchmarks/{report}', { params: { path: { id: 'kv.standard.small', report: report.id } } });
    expect(one.data!.report).toMatchObject({ id: report.id, status: 'pending' });
    expect((await customer.client.GET('/v1/instance-types/{id}/benchmarks/{report}', { params: { path: { id: 'kv.standard.large', report: report.id } } })).response.status).toBe(404);
    // kv.standard.small has a published report; kv.standard.xlarge has none.
    const latest = await customer.client.GET('/v1/instance-types/{id}/benchmarks/latest', path('kv.standard.xlarge'));
    expect(latest.response.status).toBe(404);
    expect(latest.error?.code).toBe('no_report');
    const markdown = await fetch(`${api.baseUrl}/v1/instance-types/kv.standard.xlarge/benchmarks/latest/report.md`, { headers: { cookie: customer.cookie } });
    expect(markdown.status).toBe(404);
    expect(markdown.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await markdown.json()).toMatchObject({ code: 'no_report', request_id: expect.any(String) });
    const pendingMarkdown = await fetch(`${api.baseUrl}/v1/instance-types/kv.standard.small/benchmarks/${report.id}/report.md`, { headers: { cookie: customer.cookie } });
    expect(pendingMarkdown.status).toBe(409);
    expect((await anonymous(api).GET('/v1/instance-types/{id}/benchmarks', path('kv.standard.small'))).response.status).toBe(401);
    // The report's operation (its progress) is readable by every signed-in caller too.
    const operation = await customer.client.GET('/v1/operations/{id}', { params: { path: { id: asked.data!.operation.id } } });
    expect(operation.data).toMatchObject({ type: 'benchmark_report', status: 'pending' });

    // A pending report changes no figure: the catalog keeps the published ones, and none for a type without any.
    const types = await customer.client.GET('/v1/instance-types');
    expect(types.data!.items.filter((t) => t.reference).map((t) => [t.id, t.reference!.origin])).toEqual([['kv.standard.small', 'published'], ['kv.standard.large', 'published']]);

    // The temporary instance is in a project no one is a member of: not the customer's, not the admin's.
    const [{ project_id: platformProject }] = await query(api, 'SELECT project_id FROM instances WHERE id = $1', [report.instance!.id]);
    for (const caller of [admin, customer]) {
      const projects = await caller.client.GET('/v1/projects');
      expect(projects.data!.items.map((p) => p.id)).not.toContain(platformProject);
      const instances = await caller.client.GET('/v1/projects/{project}/instances', { params: { path: { project: caller.defaultProjectId } } });
      expect(instances.data!.items.map((i) => i.id)).not.toContain(report.instance!.id);
      expect((await caller.client.GET('/v1/projects/{project}/instances', { params: { path: { project: platformProject } } })).response.status).toBe(404);
    }
  });
});

describe('published reports', () => {
  const committed = (type: string) => JSON.parse(fs.readFileSync(new URL(`../../../docs/benchmarks/${type}.json`, import.meta.url), 'utf8')) as TypeReportDocument;

  it("are in a new install's catalog as what they are: measured on the date, host and commit their document names", async () => {
    const types = (await customer.client.GET('/v1/instance-types')).data!.items;
    for (const id of ['kv.standard.small', 'kv.standard.large']) {
      const doc = committed(id);
      const basalt128 = (workload: string) => doc.runs[0]!.scenarios.find((s) => s.server === 'basalt' && s.workload === workload && s.value_size === 128)!;
      expect(types.find((t) => t.id === id)!.reference).toEqual({
        report_id: expect.any(String),
        origin: 'published',
        published_at: new Date(doc.measured_at).toISOString(),
        measured_at: new Date(doc.measured_at).toISOString(),
        host: doc.host,
        commit: doc.commit,
        reads_per_sec: basalt128('read-only').qps,
        writes_per_sec: basalt128('write-only').qps,
        p99_latency_ms: basalt128('read-only').p99_latency_ms,
      });
      const { report } = (await customer.client.GET('/v1/instance-types/{id}/benchmarks/latest', path(id))).data!;
      expect(report).toMatchObject({ origin: 'published', status: 'succeeded', host: doc.host, commit: doc.commit, instance: null, operation_id: null, runs: [], engine_version: '0.1.0' });
      expect(report.suites).toEqual(['memtier-standard', 'ycsb-standard', 'canonical', 'encryption-overhead']);
      expect(report.peers.map((p) => p.version)).toEqual(['Redis 7.0.15', 'memcached 1.6.18']);
      expect(report.environment).toContain(doc.host);
      const json = await customer.client.GET('/v1/instance-types/{id}/benchmarks/{report}/report.json', { params: { path: { id, report: report.id } } });
      expect(json.data).toEqual(doc);
      const md = await customer.client.GET('/v1/instance-types/{id}/benchmarks/{report}/report.md', { params: { path: { id, report: report.id } }, parseAs: 'text' });
      expect(md.data).toBe(renderBenchmarkReport(doc));
    }
    expect(types.filter((t) => !['kv.standard.small', 'kv.standard.large'].includes(t.id)).every((t) => t.reference === null)).toBe(true);
  });

  it('are loaded once: a second API start on the same database adds none', async () => {
    const second = await startApi({}, { databaseUrl: api.databaseUrl, masterKey: api.masterKey });
    try {
      const rows = await query(api, "SELECT instance_type FROM instance_type_reports WHERE origin = 'published' ORDER BY instance_type");
      expect(rows.map((r) => r.instance_type)).toEqual(['kv.standard.large', 'kv.standard.small']);
      expect(second.output()).not.toContain('Published reports loaded');
      expect(api.output()).toContain('Published reports loaded into the catalog: kv.standard.large, kv.standard.small');
    } finally {
      await second.stop();
    }
  });
});
