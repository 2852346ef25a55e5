// Per-type benchmark reports through the API, without a worker (the report stays pending):
// who may ask for one, what a request may hold, what a reader sees, and that the temporary
// instance lives in the platform's own project, which no customer (nor an admin) sees.
// e2e/provisioning/type-report.test.ts runs the whole report with the real worker.
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
    expect(await query(api, 'SELECT id FROM instance_type_reports')).toEqual([]);
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
    expect(list.data!.items.map((r) => r.id)).toEqual([report.id]);
    const one = await customer.client.GET('/v1/instance-types/{id}/benchmarks/{report}', { params: { path: { id: 'kv.standard.small', report: report.id } } });
    expect(one.data!.report).toMatchObject({ id: report.id, status: 'pending' });
    expect((await customer.client.GET('/v1/instance-types/{id}/benchmarks/{report}', { params: { path: { id: 'kv.standard.large', report: report.id } } })).response.status).toBe(404);
    const latest = await customer.client.GET('/v1/instance-types/{id}/benchmarks/latest', path('kv.standard.small'));
    expect(latest.response.status).toBe(404);
    expect(latest.error?.code).toBe('no_report');
    const markdown = await fetch(`${api.baseUrl}/v1/instance-types/kv.standard.small/benchmarks/latest/report.md`, { headers: { cookie: customer.cookie } });
    expect(markdown.status).toBe(404);
    expect(markdown.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await markdown.json()).toMatchObject({ code: 'no_report', request_id: expect.any(String) });
    const pendingMarkdown = await fetch(`${api.baseUrl}/v1/instance-types/kv.standard.small/benchmarks/${report.id}/report.md`, { headers: { cookie: customer.cookie } });
    expect(pendingMarkdown.status).toBe(409);
    expect((await anonymous(api).GET('/v1/instance-types/{id}/benchmarks', path('kv.standard.small'))).response.status).toBe(401);
    // The report's operation (its progress) is readable by every signed-in caller too.
    const operation = await customer.client.GET('/v1/operations/{id}', { params: { path: { id: asked.data!.operation.id } } });
    expect(operation.data).toMatchObject({ type: 'benchmark_report', status: 'pending' });

    // The catalog shows no figures for a type without a succeeded report.
    const types = await customer.client.GET('/v1/instance-types');
    expect(types.data!.items.every((t) => t.reference === null)).toBe(true);

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
