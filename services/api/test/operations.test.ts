// Operations (get, list, SSE progress), benchmarks, catalog and the audit log.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type RunningApi } from './support/api-process.js';
import { type Caller, createBody, loginAdmin } from './support/clients.js';
import { startWorker, type RealWorker } from './support/worker-process.js';

let api: RunningApi;
let admin: Caller;
let project: string;
/** The real worker, started by the first test once it has seen an operation still pending. */
let worker: RealWorker | undefined;

beforeAll(async () => {
  api = await startApi();
  admin = await loginAdmin(api);
  project = admin.defaultProjectId;
});
afterAll(async () => {
  await worker?.stop();
  await api?.stop();
}, 240_000);

describe('operations', () => {
  it('gets an operation, lists an instance’s operations newest first, and pages them', { timeout: 300_000 }, async () => {
    const created = (await admin.client.POST('/v1/projects/{project}/instances', { params: { path: { project } }, body: createBody('ops-1') })).data!;
    const path = { project, instance: created.instance.id };
    const op = await admin.client.GET('/v1/operations/{id}', { params: { path: { id: created.operation!.id } } });
    expect(op.data).toMatchObject({ id: created.operation!.id, type: 'create', status: 'pending', progress: 0 });
    worker = await startWorker(api, admin);
    await worker.waitRunning(created.operation!.id);
    await admin.client.POST('/v1/projects/{project}/instances/{instance}/restart', { params: { path } });
    const list = await admin.client.GET('/v1/projects/{project}/instances/{instance}/operations', { params: { path } });
    expect(list.data!.items.map((o) => o.type)).toEqual(['restart', 'create']);
    const page = await admin.client.GET('/v1/projects/{project}/instances/{instance}/operations', { params: { path, query: { limit: 1 } } });
    const next = await admin.client.GET('/v1/projects/{project}/instances/{instance}/operations', { params: { path, query: { limit: 1, cursor: page.data!.next_cursor! } } });
    expect(next.data!.items.map((o) => o.type)).toEqual(['create']);
    expect(next.data!.next_cursor).toBeNull();
    // A tampered cursor PostgreSQL could not read is a 400, not a 500.
    const tampered = Buffer.from(JSON.stringify({ t: '2026', id: created.operation!.id })).toString('base64url');
    expect((await admin.client.GET('/v1/projects/{project}/instances/{instance}/operations', { params: { path, query: { cursor: tampered } } })).response.status).toBe(400);
    expect((await admin.client.GET('/v1/operations/{id}', { params: { path: { id: '00000000-0000-4000-8000-000000000000' } } })).response.status).toBe(404);
  });

  it('streams progress as Server-Sent Events until the operation finishes', async () => {
    const created = (await admin.client.POST('/v1/projects/{project}/instances', { params: { path: { project } }, body: createBody('ops-sse') })).data!;
    const operationId = created.operation!.id;
    const response = await fetch(`${api.baseUrl}/v1/operations/${operationId}/events`, { headers: { cookie: admin.cookie, accept: 'text/event-stream' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const reader = response.body!.getReader();
    let text = '';
    const readUntil = async (needle: string) => {
      while (!text.includes(needle)) {
        const { value, done } = await reader.read();
        if (done) break;
        text += new TextDecoder().decode(value);
      }
    };
    await readUntil('operation_created');
    // The worker (started by the first test) provisions it: its steps arrive as they happen.
    await readUntil('event: operation');
    await readUntil('"status":"succeeded"');
    expect(text).toContain('event: progress');
    expect(text).toMatch(/"kind":"step_started"/);
    expect(text).toMatch(/id: \d+/);
    const { done } = await reader.read();
    expect(done).toBe(true);

    // Reconnecting with Last-Event-ID resumes after that event: nothing is sent twice.
    const lastId = Math.max(...[...text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1])));
    const resumed = await fetch(`${api.baseUrl}/v1/operations/${operationId}/events`, { headers: { cookie: admin.cookie, 'last-event-id': String(lastId) } });
    const rest = await resumed.text();
    expect(rest).not.toContain('event: progress');
    expect(rest).toContain('event: operation');
  });

  it('refuses the stream of an unknown operation with 404', async () => {
    const response = await fetch(`${api.baseUrl}/v1/operations/00000000-0000-4000-8000-000000000000/events`, { headers: { cookie: admin.cookie } });
    expect(response.status).toBe(404);
  });
});

describe('catalog', () => {
  it('lists region local and the instance types, with no third-party throughput figures as theirs', async () => {
    const regions = await admin.client.GET('/v1/regions');
    expect(regions.data!.items).toEqual([expect.objectContaining({ id: 'local', target: 'local', available: true })]);
    const types = await admin.client.GET('/v1/instance-types', { params: { query: { region: 'local' } } });
    expect(types.data!.items.map((t) => t.size)).toEqual(['small', 'large', 'xlarge', '2xlarge', '4xlarge', '8xlarge', '13xlarge']);
    const xl = await admin.client.GET('/v1/instance-types/{id}', { params: { path: { id: 'kv.standard.xlarge' } } });
    expect(xl.data).toMatchObject({ vcpu: 4, memory_gib: 16 });
    expect(xl.data).not.toHaveProperty('reference_qps');
    const big = await admin.client.GET('/v1/instance-types/{id}', { params: { path: { id: 'kv.standard.13xlarge' } } });
    expect(big.data).toMatchObject({ vcpu: 52, memory_gib: 192 });
    expect((await admin.client.GET('/v1/instance-types/{id}', { params: { path: { id: 'kv.standard.huge' } } })).response.status).toBe(404);
    expect((await admin.client.GET('/v1/instance-types/{id}/benchmarks', { params: { path: { id: 'kv.standard.xlarge' } } })).data!.items).toEqual([]);
  });
});

describe('benchmarks', () => {
  it('queues a suite or a custom run on a running instance, serves it back, and takes a cancel', async () => {
    const created = (await admin.client.POST('/v1/projects/{project}/instances', { params: { path: { project } }, body: createBody('bench-1') })).data!;
    const path = { project, instance: created.instance.id };
    const runs = '/v1/projects/{project}/instances/{instance}/benchmarks' as const;
    const early = await admin.client.POST(runs, { params: { path }, body: { workload: 'memtier-standard' } });
    expect(early.response.status).toBe(409);
    await worker!.waitRunning(created.operation!.id);

    const queued = await admin.client.POST(runs, { params: { path }, body: { workload: 'custom', flags: ['-t', '1', '--clients=4', '--ratio', '1:1', '-R', '--test-time=3'] } });
    expect(queued.response.status).toBe(202);
    expect(queued.data!.benchmark).toMatchObject({
      status: 'pending',
      workload: 'custom',
      parameters: { flags: ['--threads=1', '--clients=4', '--ratio=1:1', '--random-data', '--test-time=3'] },
      instance_type: 'kv.standard.small',
      scenarios: [],
      operation_id: queued.data!.operation.id,
    });
    expect(queued.data!.operation.type).toBe('benchmark');
    const list = await admin.client.GET(runs, { params: { path } });
    expect(list.data!.items).toHaveLength(1);
    const benchmark = queued.data!.benchmark.id;
    const one = await admin.client.GET('/v1/projects/{project}/instances/{instance}/benchmarks/{benchmark}', { params: { path: { ...path, benchmark } } });
    expect(one.data!.id).toBe(benchmark);

    // Customer text never reaches a shell or picks where the client connects or writes.
    for (const flags of [['--server=10.0.0.1'], ['-a', 'x'], ['--json-out-file=/etc/passwd'], ['--ratio=1:1; rm -rf /'], ['$(reboot)'], ['--threads=100'], ['--clients=200', '--threads=2'], ['--test-time=5', '--requests=10']]) {
      const bad = await admin.client.POST(runs, { params: { path }, body: { workload: 'custom', flags } });
      expect(bad.response.status, flags.join(' ')).toBe(400);
      expect(bad.error).toMatchObject({ code: 'invalid_request', request_id: expect.any(String) });
    }
    // Issue 43: a client sized to exhaust the host (256 connections × 1024 values of 1 MiB).
    const huge = await admin.client.POST(runs, { params: { path }, body: { workload: 'custom', flags: ['--threads=8', '--clients=32', '--pipeline=1024', '--data-size=1048576'] } });
    expect(huge.response.status).toBe(400);
    expect(huge.error).toMatchObject({ code: 'invalid_request', message: expect.stringContaining('client memory limit is 256 MiB'), request_id: expect.any(String) });
    expect((await admin.client.POST(runs, { params: { path }, body: { workload: 'custom' } })).response.status).toBe(400);
    expect((await admin.client.POST(runs, { params: { path }, body: { workload: 'memtier-standard', flags: ['-t', '1'] } })).response.status).toBe(400);
    expect((await admin.client.POST(runs, { params: { path }, body: { workload: 'rm -rf' as never } })).response.status).toBe(400);

    const cancel = '/v1/projects/{project}/instances/{instance}/benchmarks/{benchmark}/cancel' as const;
    const cancelled = await admin.client.POST(cancel, { params: { path: { ...path, benchmark } } });
    expect(cancelled.response.status).toBe(202);
    expect(cancelled.data!.cancel_requested_at).toEqual(expect.any(String));
    expect((await admin.client.POST(cancel, { params: { path: { ...path, benchmark } } })).response.status).toBe(202);
    const unknown = await admin.client.POST(cancel, { params: { path: { ...path, benchmark: '00000000-0000-4000-8000-000000000000' } } });
    expect(unknown.response.status).toBe(404);

    // Issue 43: at most two runs of a project pending or running at once.
    const finished = async (id: string) => {
      for (let i = 0; i < 240; i++) {
        const run = await admin.client.GET('/v1/projects/{project}/instances/{instance}/benchmarks/{benchmark}', { params: { path: { ...path, benchmark: id } } });
        if (run.data!.status !== 'pending' && run.data!.status !== 'running') return;
        await new Promise((r) => setTimeout(r, 500));
      }
      throw new Error(`benchmark ${id} did not finish`);
    };
    await finished(benchmark);
    const long = { workload: 'custom' as const, flags: ['--threads=1', '--clients=1', '--test-time=60'] };
    const first = await admin.client.POST(runs, { params: { path }, body: long });
    const second = await admin.client.POST(runs, { params: { path }, body: long });
    expect([first.response.status, second.response.status]).toEqual([202, 202]);
    const third = await admin.client.POST(runs, { params: { path }, body: long });
    expect(third.response.status).toBe(429);
    expect(third.error).toMatchObject({ code: 'benchmark_limit', message: expect.stringContaining('at most 2 at once'), request_id: expect.any(String) });
    for (const run of [first, second]) await admin.client.POST(cancel, { params: { path: { ...path, benchmark: run.data!.benchmark.id } } });
    await finished(first.data!.benchmark.id);
    await finished(second.data!.benchmark.id);
    expect((await admin.client.POST(runs, { params: { path }, body: { workload: 'custom', flags: ['--threads=1', '--clients=1', '--test-time=1'] } })).response.status).toBe(202);
  });
});

describe('audit log', () => {
  it('records each mutating call with who, what, outcome and request id', async () => {
    const created = await admin.client.POST('/v1/projects/{project}/instances', { params: { path: { project } }, body: createBody('audited'), headers: { 'x-request-id': 'req-audit-1' } });
    expect(created.response.headers.get('x-request-id')).toBe('req-audit-1');
    await admin.client.POST('/v1/projects/{project}/instances', { params: { path: { project } }, body: createBody('audited') });
    await new Promise((r) => setTimeout(r, 200));
    const log = await admin.client.GET('/v1/projects/{project}/audit-log', { params: { path: { project } } });
    const entry = log.data!.items.find((e) => e.request_id === 'req-audit-1');
    expect(entry).toMatchObject({ user_id: admin.userId, method: 'POST', action: 'POST /v1/projects/:project/instances', status_code: 202 });
    expect(log.data!.items.some((e) => e.status_code === 409)).toBe(true);
    const page = await admin.client.GET('/v1/projects/{project}/audit-log', { params: { path: { project }, query: { limit: 1 } } });
    expect(page.data!.items).toHaveLength(1);
    const older = await admin.client.GET('/v1/projects/{project}/audit-log', { params: { path: { project }, query: { limit: 1, cursor: Number(page.data!.next_cursor) } } });
    expect(older.data!.items[0]!.id).toBeLessThan(page.data!.items[0]!.id);
  });
});
