// A region whose worker cannot set up its host network (issue 45): the worker marks the region
// unavailable in the catalog at its start, with the reason; the API shows both and refuses a new
// instance there with a 409 that says why (before, the worker kept the verdict in its own memory and the API
// accepted instances whose operations then stayed pending); a worker that can set it up marks
// it available again. Nothing here writes the regions table: the workers do.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Schemas } from '@basalt/api-client';
import { startProvisioningPlatform, type ProvisioningPlatform } from './support/stack.js';
import { startWorker, type WorkerProcess } from './support/worker-process.js';

let platform: ProvisioningPlatform;
let worker: WorkerProcess | undefined;

beforeAll(async () => {
  platform = await startProvisioningPlatform('prov_region', {}, { worker: false });
});

afterAll(async () => {
  await worker?.kill();
  await platform?.stop();
});

async function regionAvailable(wanted: boolean, timeoutMs = 60_000): Promise<Schemas['RegionDto']> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { data } = await platform.client.GET('/v1/regions');
    const region = data?.items.find((r) => r.id === 'local');
    if (region?.available === wanted) return region;
    if (Date.now() > deadline) throw new Error(`region local not available=${wanted} after ${timeoutMs} ms; worker log:\n${worker?.log().slice(-2000)}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

describe('a region its worker cannot serve', () => {
  test('is shown unavailable and refuses new instances, until a worker that can serve it starts', async () => {
    // A bridge name the kernel refuses: host-network.sh fails before it changes anything.
    worker = startWorker(platform.databaseUrl, platform.dataDir, 'no-bridge', { BASALT_BRIDGE: 'not a valid name!' });
    const unavailable = await regionAvailable(false);
    expect(unavailable.unavailable_reason).toMatch(/^cannot set up bridge not a valid name! for 10\.77\.0\.0\/16: /);
    expect(worker.log()).toMatch(/region local: cannot set up bridge not a valid name! .*the API creates no instance there/);
    const refused = await platform.client.POST('/v1/projects/{project}/instances', {
      params: { path: { project: platform.projectId } },
      body: { name: 'nowhere', instance_type: 'kv.standard.small', region: 'local', engine_version: '1.0' },
    });
    expect(refused.response.status).toBe(409);
    expect(refused.error).toMatchObject({ code: 'region_unavailable', message: expect.stringMatching(/^Region local is unavailable: cannot set up bridge not a valid name! for 10\.77\.0\.0\/16: /) });
    const { data: instances } = await platform.client.GET('/v1/projects/{project}/instances', { params: { path: { project: platform.projectId } } });
    expect(instances!.items).toEqual([]);

    await worker.kill();
    worker = startWorker(platform.databaseUrl, platform.dataDir, 'bridge');
    expect((await regionAvailable(true)).unavailable_reason).toBeNull();
  });
});
