// Instance architecture (issue 15): `standalone` or `standard` (a primary and 1..5 replicas),
// the replication mode, the rules of @basalt/api-client/rules as 400s with {code, message,
// request_id}, and quotas that count every node (the declared fields of nodes and endpoints:
// packages/db/test/instance-topology.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type RunningApi } from './support/api-process.js';
import { type Caller, createBody, loginAdmin, query } from './support/clients.js';

let api: RunningApi;
let admin: Caller;
let project: string;

beforeAll(async () => {
  // small: 1 vCPU 2 GiB.
  api = await startApi({ BASALT_QUOTA_INSTANCES: '10', BASALT_QUOTA_VCPU: '20', BASALT_QUOTA_MEMORY_GIB: '200' });
  admin = await loginAdmin(api);
  project = (await admin.client.POST('/v1/projects', { body: { name: 'architecture' } })).data!.id;
});
afterAll(() => api?.stop());

const create = (name: string, extra: Record<string, unknown>) =>
  admin.client.POST('/v1/projects/{project}/instances', { params: { path: { project } }, body: createBody(name, extra) as never });

describe('architecture', () => {
  it('is standalone by default, with no replicas and no replication mode', async () => {
    const { data, response } = await create('alone', {});
    expect(response.status).toBe(202);
    expect(data!.instance).toMatchObject({ architecture: 'standalone', replicas: 0, nodes: [], endpoints: [] });
    expect(data!.instance.parameters.replication_mode).toBeUndefined();
  });

  it('standard takes replicas and a replication mode, defaulting to 1 replica and sync', async () => {
    const standard = await create('ha', { architecture: 'standard' });
    expect(standard.response.status).toBe(202);
    expect(standard.data!.instance).toMatchObject({ architecture: 'standard', replicas: 1, parameters: { replication_mode: 'sync' } });
    const async = await create('ha-async', { architecture: 'standard', replicas: 2, parameters: { replication_mode: 'async' } });
    expect(async.response.status).toBe(202);
    expect(async.data!.instance).toMatchObject({ architecture: 'standard', replicas: 2, parameters: { replication_mode: 'async' } });
    const [operation] = await query(api, 'SELECT params FROM operations WHERE id = $1', [async.data!.operation!.id]);
    expect(operation.params).toMatchObject({ architecture: 'standard', replicas: 2 });
    // TLS too: one CA per instance signs every node's certificate (the worker makes it).
    const secure = await create('ha-tls', { architecture: 'standard', tls_enabled: true });
    expect(secure.response.status).toBe(202);
    expect(secure.data!.instance).toMatchObject({ architecture: 'standard', tls_enabled: true });
  });

  it('refuses what the rules refuse with 400 {code, message, request_id}', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ architecture: 'standard', replicas: 0 }, /replicas/],
      [{ architecture: 'standard', replicas: 6 }, /replicas/],
      [{ replicas: 1 }, /only a standard instance has replicas/],
      [{ parameters: { replication_mode: 'sync' } }, /only a standard instance replicates/],
      [{ architecture: 'cluster' }, /architecture/],
      [{ architecture: 'standard', parameters: { replication_mode: 'semi' } }, /replication_mode/],
      [{ architecture: 'standard', replicas: '2' }, /replicas/],
    ];
    for (const [extra, message] of cases) {
      const { error, response } = await create('refused', extra);
      expect(response.status, JSON.stringify(extra)).toBe(400);
      expect(error).toMatchObject({ code: expect.any(String), message: expect.stringMatching(message), request_id: expect.any(String) });
    }
  });

  it('PATCH refuses a replication mode on a standalone instance', async () => {
    const { data } = await create('alone-patch', {});
    const patch = await admin.client.PATCH('/v1/projects/{project}/instances/{instance}', {
      params: { path: { project, instance: data!.instance.id } },
      body: { parameters: { replication_mode: 'async' } },
    });
    expect(patch.response.status).toBe(400);
    expect(patch.error!.message).toMatch(/only a standard instance replicates/);
  });

  it('counts every node against the vCPU and memory quota', async () => {
    const other = (await admin.client.POST('/v1/projects', { body: { name: 'ha-quota' } })).data!.id;
    const make = (name: string, extra: Record<string, unknown>) =>
      admin.client.POST('/v1/projects/{project}/instances', { params: { path: { project: other } }, body: createBody(name, extra) as never });
    // 3 instances of 6 nodes of 1 vCPU: 18 of 20.
    for (const name of ['six-a', 'six-b', 'six-c']) expect((await make(name, { architecture: 'standard', replicas: 5 })).response.status).toBe(202);
    const over = await make('three-more', { architecture: 'standard', replicas: 2 });
    expect(over.response.status).toBe(403);
    expect(over.error).toMatchObject({
      code: 'quota_exceeded',
      details: { used: { vcpu: 18 }, requested: { nodes: 3, vcpu: 3 }, exceeded: ['vcpu'] },
    });
    expect((await make('two-more', { architecture: 'standard', replicas: 1 })).response.status).toBe(202);
  });

  it('POST /failover is 409 on a standalone instance and on a standard one that is not running', async () => {
    const alone = await create('alone-failover', {});
    const standard = await create('ha-failover', { architecture: 'standard' });
    for (const instance of [alone.data!.instance.id, standard.data!.instance.id]) {
      const { error, response } = await admin.client.POST('/v1/projects/{project}/instances/{instance}/failover', { params: { path: { project, instance } } });
      expect(response.status).toBe(409);
      expect(error).toMatchObject({ code: 'invalid_state', request_id: expect.any(String) });
    }
  });
});
