// Instance metrics and slow log: the range rule, project isolation (another project's member
// gets 404), 404 not_configured without a Prometheus (not a server fault), and the fixed series from a real Prometheus.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { METRIC_SERIES_KEYS } from '@basalt/api-client/rules';
import { startApi, type RunningApi } from './support/api-process.js';
import { type Caller, loginAdmin, newUser } from './support/clients.js';
import { startWithRunningInstance, type RealWorker } from './support/worker-process.js';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..', '..');

interface StartedPrometheus {
  url: string;
  stop(): Promise<void>;
}

let prometheus: StartedPrometheus;
let api: RunningApi;
let worker: RealWorker;
let bare: RunningApi;
let admin: Caller;
let other: Caller;
let ids: { project: string; instance: string };
let promDir = '';

beforeAll(async () => {
  // The platform's own starter (scripts/lib/prometheus.mjs): the real Debian binary on loopback.
  const lib = (await import(pathToFileURL(path.join(root, 'scripts', 'lib', 'prometheus.mjs')).href)) as {
    startPrometheus(options: Record<string, unknown>): Promise<StartedPrometheus>;
  };
  const { freePort } = (await import(pathToFileURL(path.join(root, 'scripts', 'lib', 'net.mjs')).href)) as { freePort(): Promise<number> };
  promDir = fs.mkdtempSync(path.join(os.tmpdir(), 'basalt-prom-api-'));
  prometheus = await lib.startPrometheus({ dir: promDir, port: await freePort(), scrapeInterval: '1s', retention: '1h', logDir: promDir });
  api = await startApi({ BASALT_PROMETHEUS_URL: prometheus.url });
  admin = await loginAdmin(api);
  other = await newUser(api, admin);
  ({ worker, path: ids } = await startWithRunningInstance(api, admin, 'metrics-1'));
}, 240_000);
afterAll(async () => {
  await worker?.stop();
  await api?.stop();
  await bare?.stop();
  await prometheus?.stop();
  if (promDir) fs.rmSync(promDir, { recursive: true, force: true });
}, 240_000);

describe('instance metrics', () => {
  it('answers the fixed series for a valid range', async () => {
    const { data, response } = await admin.client.GET('/v1/projects/{project}/instances/{instance}/metrics', { params: { path: ids, query: { range: '15m' } } });
    expect(response.status).toBe(200);
    expect(data!.series.map((s) => s.key)).toEqual(METRIC_SERIES_KEYS);
    expect(data!).toMatchObject({ range: '15m', step_seconds: 10, window_seconds: 60, disk_limit_bytes: expect.any(Number) });
    expect(data!.end - data!.start).toBe(900);
    // No node of it was ever scraped: every series is empty, none is made up.
    expect(data!.series.every((s) => s.points.length === 0)).toBe(true);
  });

  it('refuses ranges outside 15m..7d and anything that is not a range', async () => {
    for (const range of ['10m', '8d', '1w', 'sum(up)', '0h', '1h"}']) {
      const { error, response } = await admin.client.GET('/v1/projects/{project}/instances/{instance}/metrics', { params: { path: ids, query: { range } } });
      expect(response.status, range).toBe(400);
      expect(error).toMatchObject({ code: 'invalid_request', message: expect.stringContaining('15m and 7d'), request_id: expect.any(String) });
    }
    const unknown = await admin.client.GET('/v1/projects/{project}/instances/{instance}/metrics', { params: { path: ids, query: { series: 'ops_read,up' } } });
    expect(unknown.response.status).toBe(400);
    const some = await admin.client.GET('/v1/projects/{project}/instances/{instance}/metrics', { params: { path: ids, query: { series: 'ops_read,ops_write' } } });
    expect(some.data!.series.map((s) => s.key)).toEqual(['ops_read', 'ops_write']);
    // Issue 43: a repeated key is answered (and asked of Prometheus) once; a list of more names than series is refused.
    const repeated = await admin.client.GET('/v1/projects/{project}/instances/{instance}/metrics', { params: { path: ids, query: { series: 'ops_read,ops_write,ops_read,ops_read' } } });
    expect(repeated.data!.series.map((s) => s.key)).toEqual(['ops_read', 'ops_write']);
    const flood = await admin.client.GET('/v1/projects/{project}/instances/{instance}/metrics', { params: { path: ids, query: { series: Array(44).fill('ops_read').join(',') } } });
    expect(flood.response.status).toBe(400);
    expect(flood.error).toMatchObject({ code: 'invalid_request', message: expect.stringContaining(`at most ${METRIC_SERIES_KEYS.length}`), request_id: expect.any(String) });
    const week = await admin.client.GET('/v1/projects/{project}/instances/{instance}/metrics', { params: { path: ids, query: { range: '7d' } } });
    expect(week.response.status).toBe(200);
  });

  it("is 404 on both endpoints for a member of another project", async () => {
    const metrics = await other.client.GET('/v1/projects/{project}/instances/{instance}/metrics', { params: { path: ids } });
    expect(metrics.response.status).toBe(404);
    expect(metrics.error).toMatchObject({ code: 'not_found', request_id: expect.any(String) });
    const slowlog = await other.client.GET('/v1/projects/{project}/instances/{instance}/slowlog', { params: { path: ids } });
    expect(slowlog.response.status).toBe(404);
    // Their own project with this instance id: still nothing.
    const own = await other.client.GET('/v1/projects/{project}/instances/{instance}/metrics', { params: { path: { project: other.defaultProjectId, instance: ids.instance } } });
    expect(own.response.status).toBe(404);
  });

  it('validates the slow log count', async () => {
    const { response, error } = await admin.client.GET('/v1/projects/{project}/instances/{instance}/slowlog', { params: { path: ids, query: { count: 1000 } } });
    expect(response.status).toBe(400);
    expect(error).toMatchObject({ code: expect.any(String), request_id: expect.any(String) });
  });

  it('is 404 not_configured when the platform has no Prometheus', async () => {
    bare = await startApi({ BASALT_PROMETHEUS_URL: '' }, { databaseUrl: api.databaseUrl, masterKey: api.masterKey });
    const caller = await loginAdmin({ ...bare, adminEmail: api.adminEmail, adminPassword: api.adminPassword });
    const { response, error } = await caller.client.GET('/v1/projects/{project}/instances/{instance}/metrics', { params: { path: ids } });
    expect(response.status).toBe(404);
    expect(error).toMatchObject({ code: 'not_configured', message: expect.stringContaining('not configured') });
  });
});
