// Issue 43's attacks on the control plane's resources, through the public API as `npm start`
// runs it (process VMs, a real Prometheus of the test's own), on one instance:
// - a custom benchmark sized to exhaust the worker's host was accepted (202), and a project
//   could run any number at once;
// - an expiring API key minted a key that never expired, which outlived its parent's expiry
//   and its revocation;
// - the metrics endpoint's `series` fanned one request out to a Prometheus query per name,
//   repeats included, however many;
// - live event streams per user were unbounded (each holds a connection and polls PostgreSQL).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createBasaltClient, type BasaltClient, type Schemas } from '@basalt/api-client';
import { BENCHMARK_CLIENT_MEMORY_MAX, BENCHMARK_RUNS_PER_PROJECT_MAX, METRIC_SERIES_KEYS } from '@basalt/api-client/rules';
import { ROOT } from '../support/env.js';
import type { ProvisioningPlatform } from '../provisioning/support/stack.js';
import { createRunningInstance, instancePath, startSecurityPlatform } from './support.js';

const promDir = fs.mkdtempSync(path.join(os.tmpdir(), 'basalt-prom-sec-'));
let prometheus: { env: Record<string, string>; stop(): Promise<void> };
let platform: ProvisioningPlatform;
let instance: Schemas['InstanceDto'];

beforeAll(async () => {
  const lib = await import(path.join(ROOT, 'scripts', 'lib', 'prometheus.mjs'));
  const { freePort } = await import(path.join(ROOT, 'scripts', 'lib', 'net.mjs'));
  prometheus = await lib.startPrometheus({ dir: promDir, port: await freePort(), scrapeInterval: '2s', retention: '1h', logDir: promDir });
  platform = await startSecurityPlatform('sec_bounds', prometheus.env);
  instance = (await createRunningInstance(platform, { name: 'bounds' })).instance;
}, 300_000);

afterAll(async () => {
  await platform?.stop();
  await prometheus?.stop();
  fs.rmSync(promDir, { recursive: true, force: true });
});

const runsPath = '/v1/projects/{project}/instances/{instance}/benchmarks' as const;
const runPath = '/v1/projects/{project}/instances/{instance}/benchmarks/{benchmark}' as const;

/** Waits until a benchmark run is neither pending nor running. */
async function finished(benchmark: string): Promise<string> {
  for (let i = 0; i < 240; i++) {
    const run = await platform.client.GET(runPath, { params: { path: { ...instancePath(platform, instance), benchmark } } });
    if (run.data!.status !== 'pending' && run.data!.status !== 'running') return run.data!.status;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`benchmark ${benchmark} did not finish`);
}

describe('benchmarks and event streams', () => {
  /** The project's two live runs (a minute of load each, cancelled at the end). */
  const live: { benchmark: string; operation: string }[] = [];
  /** An API key of the admin's, for fetch (the streams are the user's, whichever credential). */
  let key = '';

  afterAll(async () => {
    for (const run of live) await platform.client.POST(`${runPath}/cancel`, { params: { path: { ...instancePath(platform, instance), benchmark: run.benchmark } } });
    for (const run of live) await finished(run.benchmark);
  });

  test("a client sized to exhaust the worker's host is refused with 400 naming the limit", async () => {
    const huge = await platform.client.POST(runsPath, {
      params: { path: instancePath(platform, instance) },
      body: { workload: 'custom', flags: ['--threads=8', '--clients=32', '--pipeline=1024', '--data-size=1048576'] },
    });
    expect(huge.response.status).toBe(400);
    expect(huge.error).toMatchObject({ code: 'invalid_request', message: expect.stringContaining(`client memory limit is ${BENCHMARK_CLIENT_MEMORY_MAX / 1024 ** 2} MiB`) });
    // Nothing was queued.
    const list = await platform.client.GET(runsPath, { params: { path: instancePath(platform, instance) } });
    expect(list.data!.items).toHaveLength(0);
  });

  test(`the project's run after ${BENCHMARK_RUNS_PER_PROJECT_MAX} live ones is refused with 429`, async () => {
    const long = { workload: 'custom' as const, flags: ['--threads=1', '--clients=1', '--test-time=60'] };
    for (let i = 0; i < BENCHMARK_RUNS_PER_PROJECT_MAX; i++) {
      const asked = await platform.client.POST(runsPath, { params: { path: instancePath(platform, instance) }, body: long });
      expect(asked.response.status, JSON.stringify(asked.error)).toBe(202);
      live.push({ benchmark: asked.data!.benchmark.id, operation: asked.data!.operation.id });
    }
    const third = await platform.client.POST(runsPath, { params: { path: instancePath(platform, instance) }, body: long });
    expect(third.response.status).toBe(429);
    expect(third.error).toMatchObject({ code: 'benchmark_limit', message: expect.stringContaining(`at most ${BENCHMARK_RUNS_PER_PROJECT_MAX} at once`) });
  });

  test("the user's eleventh live event stream is refused with 429; a closed one frees its slot", async () => {
    const made = await platform.client.POST('/v1/api-keys', { body: { name: 'streams' } });
    expect(made.response.status).toBe(201);
    key = made.data!.key;
    const opened: AbortController[] = [];
    // The first run's operation lives a minute: its stream stays open until its client leaves.
    const stream = async () => {
      const controller = new AbortController();
      const response = await fetch(`${platform.apiUrl}/v1/operations/${live[0]!.operation}/events`, { headers: { authorization: `Bearer ${key}`, accept: 'text/event-stream' }, signal: controller.signal });
      if (response.status === 200) opened.push(controller);
      return response;
    };
    try {
      const ten = await Promise.all(Array.from({ length: 10 }, stream));
      expect(ten.map((r) => r.status)).toEqual(Array(10).fill(200));
      const eleventh = await stream();
      expect(eleventh.status).toBe(429);
      expect(await eleventh.json()).toMatchObject({ code: 'too_many_streams', message: expect.stringContaining('At most 10') });
      opened.shift()!.abort();
      let again = 0;
      for (let i = 0; i < 50 && again !== 200; i++) {
        await new Promise((r) => setTimeout(r, 100));
        const response = await stream();
        again = response.status;
        if (again !== 200) await response.text();
      }
      expect(again).toBe(200);
    } finally {
      for (const controller of opened) controller.abort();
    }
  });
});

describe('API keys', () => {
  const inHours = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString();
  const keyClient = (key: string): BasaltClient => createBasaltClient({ baseUrl: platform.apiUrl, apiKey: key });

  test('an expiring key cannot make a key that outlives it, and revoking it revokes the key it made', async () => {
    const parent = await platform.client.POST('/v1/api-keys', { body: { name: 'short-lived', expires_at: inHours(1) } });
    expect(parent.response.status).toBe(201);
    const byParent = keyClient(parent.data!.key);
    const forever = await byParent.POST('/v1/api-keys', { body: { name: 'forever' } });
    expect(forever.response.status).toBe(400);
    expect(forever.error!.message).toContain(parent.data!.api_key.expires_at!);
    const longer = await byParent.POST('/v1/api-keys', { body: { name: 'longer', expires_at: inHours(24) } });
    expect(longer.response.status).toBe(400);
    const child = await byParent.POST('/v1/api-keys', { body: { name: 'child', expires_at: inHours(0.5) } });
    expect(child.response.status).toBe(201);
    expect(child.data!.api_key.parent_id).toBe(parent.data!.api_key.id);
    const byChild = keyClient(child.data!.key);
    expect((await byChild.GET('/v1/projects')).response.status).toBe(200);
    // A grandchild, made by the child: revoking the first key takes all three.
    const grandchild = await byChild.POST('/v1/api-keys', { body: { name: 'grandchild', expires_at: inHours(0.25) } });
    expect(grandchild.response.status).toBe(201);

    const revoked = await platform.client.DELETE('/v1/api-keys/{id}', { params: { path: { id: parent.data!.api_key.id } } });
    expect(revoked.response.status).toBe(204);
    for (const key of [parent.data!.key, child.data!.key, grandchild.data!.key]) expect((await keyClient(key).GET('/v1/projects')).response.status).toBe(401);
  });
});

describe('metrics', () => {
  const metrics = (series: string) => platform.client.GET('/v1/projects/{project}/instances/{instance}/metrics', { params: { path: instancePath(platform, instance), query: { series } } });

  test('a repeated series is answered once; more names than there are series is a 400', async () => {
    const repeated = await metrics('ops_read,ops_write,ops_read,ops_read,ops_write');
    expect(repeated.response.status, JSON.stringify(repeated.error)).toBe(200);
    expect(repeated.data!.series.map((s) => s.key)).toEqual(['ops_read', 'ops_write']);
    const flood = await metrics(Array(44).fill('ops_read').join(','));
    expect(flood.response.status).toBe(400);
    expect(flood.error).toMatchObject({ code: 'invalid_request', message: expect.stringContaining(`at most ${METRIC_SERIES_KEYS.length}`) });
  });
});
