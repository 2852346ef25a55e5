// BASALT_API_WORKERS=2: one preparation, two processes serving the same port, shared state in PostgreSQL.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startApi, type RunningApi } from './support/api-process.js';
import { createBody, loginAdmin } from './support/clients.js';

let api: RunningApi;

beforeAll(async () => {
  api = await startApi({ BASALT_API_WORKERS: '2' });
});
afterAll(() => api?.stop());

it('serves from both workers with one admin and one catalog', async () => {
  const admin = await loginAdmin(api);
  const project = admin.defaultProjectId;
  const results = await Promise.all(
    Array.from({ length: 6 }, (_, i) => admin.client.POST('/v1/projects/{project}/instances', { params: { path: { project } }, body: createBody(`w-${i}`) })),
  );
  expect(results.map((r) => r.response.status)).toEqual(Array(6).fill(202));
  const list = await admin.client.GET('/v1/projects/{project}/instances', { params: { path: { project } } });
  expect(list.data!.items).toHaveLength(6);
  expect((await admin.client.GET('/v1/instance-types')).data!.items).toHaveLength(7);
});

it('refuses a bad worker count at start', async () => {
  await expect(startApi({ BASALT_API_WORKERS: 'many' })).rejects.toThrow(/BASALT_API_WORKERS/);
});
