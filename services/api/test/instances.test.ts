// Instances: create (202 + operation + job + one-time password), list with filters, sorting and
// cursors, get, patch, delete with deletion protection, and every bad-input class. What needs a
// running instance (resize, restart) is in instances-running.test.ts, with the real worker.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decryptSecret } from '@basalt/db';
import { startApi, type RunningApi } from './support/api-process.js';
import { type Caller, createBody, loginAdmin, query } from './support/clients.js';

let api: RunningApi;
let admin: Caller;
let project: string;

beforeAll(async () => {
  api = await startApi();
  admin = await loginAdmin(api);
  project = (await admin.client.POST('/v1/projects', { body: { name: 'instances' } })).data!.id;
});
afterAll(() => api?.stop());

const create = (body: Record<string, unknown>) =>
  admin.client.POST('/v1/projects/{project}/instances', { params: { path: { project } }, body: body as never });

describe('create', () => {
  it('returns 202 with the instance, its operation and the default password once, and enqueues a provision job', async () => {
    const { data, response } = await create(
      createBody('cache-a', { tags: { team: 'web' }, allowlist: [{ cidr: '10.1.0.0/16', description: 'app' }], parameters: { fsync: 'always' }, tls_enabled: true }),
    );
    expect(response.status).toBe(202);
    expect(data!.instance).toMatchObject({ name: 'cache-a', status: 'creating', disk_gib: 10, tls_enabled: true, tags: { team: 'web' }, parameters: { fsync: 'always' } });
    expect(data!.operation).toMatchObject({ type: 'create', status: 'pending', instance_id: data!.instance.id });
    expect(data!.default_user.username).toBe('default');
    const password = data!.default_user.password;
    expect(password).toHaveLength(24);

    const jobs = await query(api, `SELECT name, data FROM pgboss.job WHERE data->>'operation_id' = $1`, [data!.operation!.id]);
    expect(jobs).toEqual([{ name: 'instance-provision', data: { instance_id: data!.instance.id, operation_id: data!.operation!.id } }]);

    const detail = await admin.client.GET('/v1/projects/{project}/instances/{instance}', { params: { path: { project, instance: data!.instance.id } } });
    expect(JSON.stringify(detail.data)).not.toContain(password);
    expect(detail.data!.current_operation).toMatchObject({ id: data!.operation!.id, type: 'create' });

    const [stored] = await query(api, `SELECT password_encrypted FROM instance_users WHERE instance_id = $1`, [data!.instance.id]);
    expect(stored.password_encrypted).not.toContain(password);
    expect(decryptSecret(Buffer.from(api.masterKey, 'base64'), stored.password_encrypted)).toBe(password);
    expect(api.output()).not.toContain(password);
  });

  it('uses a given password and refuses a duplicate name (409)', async () => {
    const first = await create(createBody('cache-b', { password: 'Correct-Horse-42' }));
    expect(first.data!.default_user.password).toBe('Correct-Horse-42');
    const again = await create(createBody('cache-b'));
    expect(again.response.status).toBe(409);
    expect(again.error!.code).toBe('duplicate_name');
  });

  it.each([
    ['an unknown instance type', { instance_type: 'kv.standard.huge' }],
    ['an unknown region', { region: 'mars-1' }],
    ['a disk below the type minimum', { disk_gib: 1 }],
    ['a bad name', { name: 'Bad_Name' }],
    ['a wrong type', { tls_enabled: 'yes' }],
    ['an unknown field', { colour: 'blue' }],
    ['a bad CIDR', { allowlist: [{ cidr: '300.1.1.1/8' }] }],
    ['a CIDR with host bits', { allowlist: [{ cidr: '10.0.0.1/8' }] }],
    ['a bad parameter', { parameters: { fsync: 'sometimes' } }],
    ['too many connections', { parameters: { maxclients: 99999 } }],
    ['a weak password', { password: 'short' }],
    ['bad tags', { tags: { 'bad key!': 'x' } }],
    ['a non-string tag', { tags: { team: 5 } }],
  ])('rejects %s with 400', async (_what, override) => {
    const { error, response } = await create({ ...createBody('bad-input'), ...override });
    expect(response.status).toBe(400);
    expect(error).toMatchObject({ code: expect.any(String), message: expect.any(String), request_id: expect.any(String) });
  });

  it('answers malformed JSON, non-objects and huge bodies with 4xx, not 500', async () => {
    const url = `${api.baseUrl}/v1/projects/${project}/instances`;
    const post = (body: string, type = 'application/json') => fetch(url, { method: 'POST', headers: { cookie: admin.cookie, 'content-type': type }, body });
    expect((await post('{"name": ')).status).toBe(400);
    expect((await post('[]')).status).toBe(400);
    expect((await post('"text"')).status).toBe(400);
    expect((await post('name=x', 'application/x-www-form-urlencoded')).status).toBe(400);
    const huge = await post(JSON.stringify({ ...createBody('huge'), tags: { big: 'x'.repeat(1_100_000) } }));
    expect(huge.status).toBe(413);
    expect(await huge.json()).toMatchObject({ code: 'payload_too_large' });
  });
});

describe('list', () => {
  beforeAll(async () => {
    for (const [name, tags] of [['list-c', { env: 'prod' }], ['list-a', { env: 'dev' }], ['list-b', { env: 'prod' }]] as const) {
      await create(createBody(name, { tags, instance_type: name === 'list-a' ? 'kv.standard.large' : 'kv.standard.small' }));
    }
  });

  const list = (q: Record<string, unknown>) => admin.client.GET('/v1/projects/{project}/instances', { params: { path: { project }, query: q as never } });

  it('filters by name, tag, type and status', async () => {
    expect((await list({ name: 'LIST-' })).data!.items).toHaveLength(3);
    expect((await list({ tag: 'env:prod' })).data!.items.map((i) => i.name).sort()).toEqual(['list-b', 'list-c']);
    expect((await list({ tag: 'env' })).data!.items).toHaveLength(3);
    expect((await list({ instance_type: 'kv.standard.large' })).data!.items.map((i) => i.name)).toEqual(['list-a']);
    expect((await list({ status: 'running' })).data!.items).toHaveLength(0);
    expect((await list({ status: 'creating,running', name: 'list' })).data!.items).toHaveLength(3);
    expect((await list({ status: ['creating', 'running'], name: 'list' })).data!.items).toHaveLength(3);
    expect((await list({ status: ['deleted'], name: 'list' })).data!.items).toHaveLength(0);
  });

  it('sorts by name both ways and pages with cursors without gaps or repeats', async () => {
    expect((await list({ name: 'list', sort: 'name', order: 'asc' })).data!.items.map((i) => i.name)).toEqual(['list-a', 'list-b', 'list-c']);
    expect((await list({ name: 'list', sort: 'name', order: 'desc' })).data!.items.map((i) => i.name)).toEqual(['list-c', 'list-b', 'list-a']);
    const all = (await list({ limit: 200 })).data!.items.map((i) => i.id);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await list({ limit: 2, ...(cursor ? { cursor } : {}) });
      seen.push(...page.data!.items.map((i) => i.id));
      cursor = page.data!.next_cursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(all);
  });

  it('rejects bad query values with 400', async () => {
    for (const q of [{ limit: 0 }, { limit: 'many' }, { sort: 'size' }, { order: 'up' }, { status: 'sleeping' }, { cursor: 'garbage' }]) {
      expect((await list(q)).response.status).toBe(400);
    }
    // Tampered cursors whose timestamp Date.parse accepts but PostgreSQL would not.
    const id = '00000000-0000-4000-8000-000000000000';
    for (const v of ['2026', '2026-02-31T00:00:00.000Z', '2026-11-22 04:16:35Z']) {
      const cursor = Buffer.from(JSON.stringify({ v, id })).toString('base64url');
      const { response, error } = await list({ cursor });
      expect(response.status).toBe(400);
      expect(error).toMatchObject({ code: 'invalid_cursor' });
    }
  });
});

describe('lifecycle', () => {
  it('patches metadata at once and refuses a resize or a restart while the instance is being created', async () => {
    const created = (await create(createBody('life-1'))).data!;
    const path = { project, instance: created.instance.id };
    const patch = (body: Record<string, unknown>) => admin.client.PATCH('/v1/projects/{project}/instances/{instance}', { params: { path }, body: body as never });

    const renamed = await patch({ name: 'life-renamed', tags: { a: 'b' }, deletion_protection: true });
    expect(renamed.response.status).toBe(202);
    expect(renamed.data).toMatchObject({ instance: { name: 'life-renamed', tags: { a: 'b' }, deletion_protection: true }, operation: null });
    expect((await patch({ instance_type: 'kv.standard.large' })).response.status).toBe(409);
    expect((await patch({})).response.status).toBe(400);
    const early = await admin.client.POST('/v1/projects/{project}/instances/{instance}/restart', { params: { path } });
    expect(early.response.status).toBe(409);
    expect(early.error!.code).toBe('invalid_state');
  });

  it('refuses user and allowlist changes while the instance is being created, and changes nothing', async () => {
    // The provision reads both when its deploy starts: a change stored meanwhile would never
    // reach the engine (a deleted user still logging in, an allowlist left as it was).
    const created = (await create(createBody('life-access', { allowlist: [{ cidr: '10.1.0.0/16' }] }))).data!;
    const path = { project, instance: created.instance.id };
    const user = { ...path, username: 'default' };
    const refusals = [
      await admin.client.PUT('/v1/projects/{project}/instances/{instance}/allowlist', { params: { path }, body: { entries: [{ cidr: '10.9.9.9/32' }] } }),
      await admin.client.PATCH('/v1/projects/{project}/instances/{instance}/allowlist', { params: { path }, body: { remove: ['10.1.0.0/16'] } }),
      await admin.client.POST('/v1/projects/{project}/instances/{instance}/users', { params: { path }, body: { username: 'app', permission: 'read_write' } }),
      await admin.client.PATCH('/v1/projects/{project}/instances/{instance}/users/{username}', { params: { path: user }, body: { permission: 'read_only' } }),
      await admin.client.POST('/v1/projects/{project}/instances/{instance}/users/{username}/reset-password', { params: { path: user }, body: {} }),
      await admin.client.DELETE('/v1/projects/{project}/instances/{instance}/users/{username}', { params: { path: user } }),
    ];
    for (const refused of refusals) {
      expect(refused.response.status).toBe(409);
      expect(refused.error).toMatchObject({ code: 'invalid_state', message: expect.stringContaining('being created') });
    }
    const allowlist = await admin.client.GET('/v1/projects/{project}/instances/{instance}/allowlist', { params: { path } });
    expect(allowlist.data!.items.map((entry) => entry.cidr)).toEqual(['10.1.0.0/16']);
    const users = await admin.client.GET('/v1/projects/{project}/instances/{instance}/users', { params: { path } });
    expect(users.data!.items.map((u) => ({ username: u.username, permission: u.permission }))).toEqual([{ username: 'default', permission: 'admin' }]);
  });

  it('refuses delete under deletion protection (409), then deletes (202) and hides the instance from the default list', async () => {
    const created = (await create(createBody('life-3', { deletion_protection: true }))).data!;
    const path = { project, instance: created.instance.id };
    const refused = await admin.client.DELETE('/v1/projects/{project}/instances/{instance}', { params: { path } });
    expect(refused.response.status).toBe(409);
    expect(refused.error!.code).toBe('deletion_protected');
    await admin.client.PATCH('/v1/projects/{project}/instances/{instance}', { params: { path }, body: { deletion_protection: false } });
    const deleted = await admin.client.DELETE('/v1/projects/{project}/instances/{instance}', { params: { path } });
    expect(deleted.response.status).toBe(202);
    expect(deleted.data).toMatchObject({ instance: { status: 'deleting' }, operation: { type: 'delete' } });
    expect((await admin.client.DELETE('/v1/projects/{project}/instances/{instance}', { params: { path } })).response.status).toBe(409);
  });

  it('answers 404 for an unknown instance id and 400 for a malformed one', async () => {
    const missing = await admin.client.GET('/v1/projects/{project}/instances/{instance}', { params: { path: { project, instance: '00000000-0000-4000-8000-000000000000' } } });
    expect(missing.response.status).toBe(404);
    expect(missing.error!.code).toBe('not_found');
    const malformed = await admin.client.GET('/v1/projects/{project}/instances/{instance}', { params: { path: { project, instance: "1' OR 1=1" } } });
    expect(malformed.response.status).toBe(400);
  });
});

describe('Idempotency-Key', () => {
  it('replays the first response for a retry, and refuses the key for another request', async () => {
    const headers = { 'Idempotency-Key': 'create-idem-1' };
    const first = await admin.client.POST('/v1/projects/{project}/instances', { params: { path: { project } }, body: createBody('idem-1'), headers });
    const second = await admin.client.POST('/v1/projects/{project}/instances', { params: { path: { project } }, body: createBody('idem-1'), headers });
    expect(first.response.status).toBe(202);
    expect(second.response.status).toBe(202);
    expect(second.response.headers.get('idempotent-replayed')).toBe('true');
    expect(second.data).toEqual(first.data);
    const rows = await query(api, `SELECT count(*)::int AS n FROM instances WHERE name = 'idem-1'`);
    expect(rows[0].n).toBe(1);
    const other = await admin.client.POST('/v1/projects/{project}/instances', { params: { path: { project } }, body: createBody('idem-2'), headers });
    expect(other.response.status).toBe(409);
    expect(other.error!.code).toBe('idempotency_key_reused');
  });

  it('rejects a malformed key with 400', async () => {
    const bad = await admin.client.POST('/v1/projects/{project}/instances', { params: { path: { project } }, body: createBody('idem-bad'), headers: { 'Idempotency-Key': 'has space' } });
    expect(bad.response.status).toBe(400);
    expect(bad.error!.code).toBe('invalid_idempotency_key');
  });

  it('frees the key when the request failed, so a corrected retry goes through', async () => {
    const headers = { 'Idempotency-Key': 'create-idem-3' };
    const bad = await admin.client.POST('/v1/projects/{project}/instances', { params: { path: { project } }, body: createBody('idem-3', { region: 'mars' }), headers });
    expect(bad.response.status).toBe(400);
    const good = await admin.client.POST('/v1/projects/{project}/instances', { params: { path: { project } }, body: createBody('idem-3', { region: 'mars' }), headers });
    expect(good.response.status).toBe(400);
  });
});
