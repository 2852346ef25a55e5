// A running instance through the API: its endpoint, a resize with the disk and parameters, and a
// restart, each queued by the API and carried out by the real worker (process VMs), so the
// states the API shows are the ones the worker really leaves.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type RunningApi } from './support/api-process.js';
import { type Caller, loginAdmin, query } from './support/clients.js';
import { startWithRunningInstance, type RealWorker } from './support/worker-process.js';

let api: RunningApi;
let admin: Caller;
let worker: RealWorker;
let path: { project: string; instance: string };

beforeAll(async () => {
  api = await startApi();
  admin = await loginAdmin(api);
  ({ worker, path } = await startWithRunningInstance(api, admin, 'running-1'));
}, 240_000);
afterAll(async () => {
  await worker?.stop();
  await api?.stop();
}, 240_000);

const get = () => admin.client.GET('/v1/projects/{project}/instances/{instance}', { params: { path } });
const patch = (body: Record<string, unknown>) => admin.client.PATCH('/v1/projects/{project}/instances/{instance}', { params: { path }, body: body as never });

describe('a running instance', () => {
  it('shows its endpoint with the password masked', async () => {
    const running = await get();
    expect(running.data).toMatchObject({ status: 'running', connection_uri: expect.stringMatching(/^redis:\/\/default:\*{8}@127\.77\.\d+\.\d+:6379$/) });
  });

  it('resizes with the disk and parameters through a modify operation, keeping its type until the worker has done it', async () => {
    expect((await patch({ disk_gib: 5 })).response.status).toBe(400);
    const resized = await patch({ instance_type: 'kv.standard.large', disk_gib: 40, parameters: { timeout: 300 } });
    expect(resized.response.status).toBe(202);
    // The instance keeps its type and disk until the worker's modify succeeds (a failed resize leaves them true).
    expect(resized.data!.instance).toMatchObject({ status: 'modifying', instance_type: 'kv.standard.small', disk_gib: 10 });
    expect(resized.data!.operation).toMatchObject({ type: 'modify', status: 'pending' });
    const [job] = await query(api, `SELECT name, data FROM pgboss.job WHERE data->>'operation_id' = $1`, [resized.data!.operation!.id]);
    expect(job).toMatchObject({
      name: 'instance-modify',
      data: {
        changes: { instance_type: { from: 'kv.standard.small', to: 'kv.standard.large' }, disk_gib: { from: 10, to: 40 } },
        target: { instance_type: 'kv.standard.large', disk_gib: 40, parameters: { timeout: 300 } },
      },
    });
    const done = await worker.waitForOperation(resized.data!.operation!.id);
    expect(done.status, JSON.stringify(done.error)).toBe('succeeded');
    expect((await get()).data).toMatchObject({ status: 'running', instance_type: 'kv.standard.large', disk_gib: 40, parameters: { timeout: 300 } });
  });

  it('restarts', async () => {
    const restarted = await admin.client.POST('/v1/projects/{project}/instances/{instance}/restart', { params: { path } });
    expect(restarted.response.status).toBe(202);
    expect(restarted.data!.instance.status).toBe('restarting');
    const done = await worker.waitForOperation(restarted.data!.operation!.id);
    expect(done.status, JSON.stringify(done.error)).toBe('succeeded');
    expect((await get()).data!.status).toBe('running');
  });
});
