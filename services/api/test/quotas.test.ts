// Per-project quotas (issue 11): instances, and the vCPU and memory their types take, with
// defaults from config. Going over is 403 quota_exceeded with the numbers in `details`, on
// create and on a resize (refused before anything changes).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type RunningApi } from './support/api-process.js';
import { type Caller, createBody, loginAdmin } from './support/clients.js';
import { startWorker, type RealWorker } from './support/worker-process.js';

let api: RunningApi;
let admin: Caller;
let worker: RealWorker | undefined;

beforeAll(async () => {
  // small: 1 vCPU 2 GiB; large: 2 vCPU 8 GiB.
  api = await startApi({ BASALT_QUOTA_INSTANCES: '2', BASALT_QUOTA_VCPU: '3', BASALT_QUOTA_MEMORY_GIB: '12' });
  admin = await loginAdmin(api);
});
afterAll(async () => {
  await worker?.stop();
  await api?.stop();
}, 240_000);

async function newProject(name: string): Promise<string> {
  return (await admin.client.POST('/v1/projects', { body: { name } })).data!.id;
}
const create = (project: string, name: string, instanceType = 'kv.standard.small') =>
  admin.client.POST('/v1/projects/{project}/instances', { params: { path: { project } }, body: createBody(name, { instance_type: instanceType }) as never });

describe('quotas', () => {
  it('refuses an instance over the count with 403 quota_exceeded and the numbers', async () => {
    const project = await newProject('count');
    expect((await create(project, 'one')).response.status).toBe(202);
    expect((await create(project, 'two')).response.status).toBe(202);
    const third = await create(project, 'three');
    expect(third.response.status).toBe(403);
    expect(third.error).toMatchObject({
      code: 'quota_exceeded',
      details: {
        quota: { instances: 2, vcpu: 3, memory_gib: 12 },
        used: { instances: 2, vcpu: 2, memory_gib: 4 },
        requested: { instance_type: 'kv.standard.small', vcpu: 1, memory_gib: 2 },
        exceeded: ['instances'],
      },
    });
    expect(third.error!.request_id).toBeTruthy();
  });

  it('counts vCPU and memory by type, and a resize that would go over is refused', { timeout: 300_000 }, async () => {
    const project = await newProject('size');
    const large = await create(project, 'large', 'kv.standard.large');
    expect(large.response.status).toBe(202);
    const second = await create(project, 'large-too', 'kv.standard.large');
    expect(second.response.status).toBe(403);
    expect((second.error as unknown as { details: { exceeded: string[] } }).details.exceeded).toEqual(['vcpu', 'memory_gib']);

    const small = await create(project, 'small');
    expect(small.response.status).toBe(202);
    // The real worker makes it running (started here: the tests above need no instance to run).
    worker = await startWorker(api, admin);
    await worker.waitRunning(small.data!.operation!.id);
    const resize = await admin.client.PATCH('/v1/projects/{project}/instances/{instance}', {
      params: { path: { project, instance: small.data!.instance.id } },
      body: { instance_type: 'kv.standard.large' },
    });
    expect(resize.response.status).toBe(403);
    expect(resize.error!.code).toBe('quota_exceeded');
    // Refused before anything changed: the instance is still running as it was.
    const after = await admin.client.GET('/v1/projects/{project}/instances/{instance}', { params: { path: { project, instance: small.data!.instance.id } } });
    expect(after.data).toMatchObject({ status: 'running', instance_type: 'kv.standard.small' });
  });
});
