// A region whose worker cannot set up its host network (issue 45): the worker marks the region
// unavailable in the catalog at its start, with the reason; the API shows both and refuses a new
// instance there with a 409 that says why (before, the worker kept the verdict in its own memory and the API
// accepted instances whose operations then stayed pending); a worker that can set it up marks
// it available again. A worker on process VMs says the region places standalone instances
// only, and the API refuses a standard one there. Nothing here writes the regions table: the
// workers do.
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

/** Polls GET /v1/regions until region `local` is as `wanted` says. */
async function regionWhere(wanted: (region: Schemas['RegionDto']) => boolean, what: string, timeoutMs = 60_000): Promise<Schemas['RegionDto']> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { data } = await platform.client.GET('/v1/regions');
    const region = data?.items.find((r) => r.id === 'local');
    if (region && wanted(region)) return region;
    if (Date.now() > deadline) throw new Error(`region local not ${what} after ${timeoutMs} ms: ${JSON.stringify(region)}; worker log:\n${worker?.log().slice(-2000)}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

const regionAvailable = (wanted: boolean) => regionWhere((region) => region.available === wanted, `available=${wanted}`);

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
    worker = startWorker(platform.databaseUrl, platform.dataDir, 'bridge', { BASALT_LOCAL_VM_KIND: 'nspawn' });
    const available = await regionAvailable(true);
    expect(available).toMatchObject({ unavailable_reason: null, architectures: ['standalone', 'standard'] });
  });
});

describe('a region whose workers run process VMs', () => {
  test('offers standalone only, and a standard create there is refused with the reason', async () => {
    await worker?.kill();
    worker = startWorker(platform.databaseUrl, platform.dataDir, 'process', { BASALT_LOCAL_VM_KIND: 'process' });
    const region = await regionWhere((r) => r.architectures.length === 1, 'standalone only');
    expect(region).toMatchObject({ available: true, architectures: ['standalone'] });
    const refused = await platform.client.POST('/v1/projects/{project}/instances', {
      params: { path: { project: platform.projectId } },
      body: { name: 'replicated', instance_type: 'kv.standard.small', region: 'local', architecture: 'standard', replicas: 1 },
    });
    expect(refused.response.status).toBe(409);
    expect(refused.error).toMatchObject({ code: 'architecture_unavailable', message: expect.stringMatching(/^Region local places standalone instances only/) });
    const { data: instances } = await platform.client.GET('/v1/projects/{project}/instances', { params: { path: { project: platform.projectId } } });
    expect(instances!.items).toEqual([]);
  });
});
