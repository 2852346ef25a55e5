// Instance users (rotation, encryption at rest) and the allowlist (validation, limit, live apply).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decryptSecret } from '@basalt/db';
import { startApi, type RunningApi } from './support/api-process.js';
import { type Caller, loginAdmin, query } from './support/clients.js';
import { startWithRunningInstance, type RealWorker } from './support/worker-process.js';

let api: RunningApi;
let worker: RealWorker;
let admin: Caller;
let path: { project: string; instance: string };

beforeAll(async () => {
  api = await startApi({ BASALT_PASSWORD_ROTATION_SECONDS: '3600' });
  admin = await loginAdmin(api);
  ({ worker, path } = await startWithRunningInstance(api, admin, 'config-1'));
}, 240_000);
afterAll(async () => {
  await worker?.stop();
  await api?.stop();
}, 240_000);

const masterKey = () => Buffer.from(api.masterKey, 'base64');

describe('instance users', () => {
  it('creates a user with a generated password returned once, stored encrypted, applied by an operation', async () => {
    const created = await admin.client.POST('/v1/projects/{project}/instances/{instance}/users', { params: { path }, body: { username: 'app', permission: 'read_write' } });
    expect(created.response.status).toBe(201);
    expect(created.data!.user).toMatchObject({ username: 'app', permission: 'read_write', old_password_valid_until: null });
    expect(created.data!.operation).toMatchObject({ type: 'apply_users', status: 'pending' });
    const [job] = await query(api, `SELECT name FROM pgboss.job WHERE data->>'operation_id' = $1`, [created.data!.operation!.id]);
    expect(job.name).toBe('instance-apply-users');
    const [row] = await query(api, `SELECT password_encrypted FROM instance_users WHERE username = 'app'`);
    expect(decryptSecret(masterKey(), row.password_encrypted)).toBe(created.data!.password);

    const list = await admin.client.GET('/v1/projects/{project}/instances/{instance}/users', { params: { path } });
    expect(list.data!.items.map((u) => u.username)).toEqual(['default', 'app']);
    expect(JSON.stringify(list.data)).not.toContain(created.data!.password);
    const one = await admin.client.GET('/v1/projects/{project}/instances/{instance}/users/{username}', { params: { path: { ...path, username: 'app' } } });
    expect(one.data).toEqual(list.data!.items[1]);
    const missing = await admin.client.GET('/v1/projects/{project}/instances/{instance}/users/{username}', { params: { path: { ...path, username: 'nobody' } } });
    expect(missing.response.status).toBe(404);
    const dup = await admin.client.POST('/v1/projects/{project}/instances/{instance}/users', { params: { path }, body: { username: 'app', permission: 'admin' } });
    expect(dup.response.status).toBe(409);
  });

  it('rotates a password: the old one stays until revoked', async () => {
    const userPath = { ...path, username: 'app' };
    const [before] = await query(api, `SELECT password_encrypted FROM instance_users WHERE username = 'app'`);
    const reset = await admin.client.POST('/v1/projects/{project}/instances/{instance}/users/{username}/reset-password', { params: { path: userPath }, body: {} });
    expect(reset.response.status).toBe(200);
    expect(reset.data!.user.old_password_valid_until).not.toBeNull();
    const [after] = await query(api, `SELECT password_encrypted, old_password_encrypted FROM instance_users WHERE username = 'app'`);
    expect(after.old_password_encrypted).toBe(before.password_encrypted);
    expect(decryptSecret(masterKey(), after.password_encrypted)).toBe(reset.data!.password);

    const revoked = await admin.client.POST('/v1/projects/{project}/instances/{instance}/users/{username}/revoke-old-password', { params: { path: userPath } });
    expect(revoked.data!.user.old_password_valid_until).toBeNull();
    const [final] = await query(api, `SELECT old_password_encrypted FROM instance_users WHERE username = 'app'`);
    expect(final.old_password_encrypted).toBeNull();
  });

  it('changes a permission, deletes a user, keeps the last one, and validates input', async () => {
    const userPath = { ...path, username: 'app' };
    const changed = await admin.client.PATCH('/v1/projects/{project}/instances/{instance}/users/{username}', { params: { path: userPath }, body: { permission: 'read_only' } });
    expect(changed.data!.user.permission).toBe('read_only');
    expect((await admin.client.DELETE('/v1/projects/{project}/instances/{instance}/users/{username}', { params: { path: userPath } })).response.status).toBe(202);
    const last = await admin.client.DELETE('/v1/projects/{project}/instances/{instance}/users/{username}', { params: { path: { ...path, username: 'default' } } });
    expect(last.response.status).toBe(409);
    expect((await admin.client.PATCH('/v1/projects/{project}/instances/{instance}/users/{username}', { params: { path: userPath }, body: { permission: 'read_only' } })).response.status).toBe(404);
    const bad = await admin.client.POST('/v1/projects/{project}/instances/{instance}/users', { params: { path }, body: { username: 'no spaces', permission: 'root' as never } });
    expect(bad.response.status).toBe(400);
    expect(bad.error!.details).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'username' }), expect.objectContaining({ field: 'permission' })]));
  });
});

describe('allowlist', () => {
  const get = () => admin.client.GET('/v1/projects/{project}/instances/{instance}/allowlist', { params: { path } });

  it('replaces and patches entries, normalising CIDRs, with an apply operation', async () => {
    const replaced = await admin.client.PUT('/v1/projects/{project}/instances/{instance}/allowlist', {
      params: { path },
      body: { entries: [{ cidr: '10.0.0.0/8', description: 'vpc' }, { cidr: '192.168.1.7' }, { cidr: '2001:DB8:0:0::/32' }] },
    });
    expect(replaced.response.status).toBe(200);
    expect(replaced.data!.items.map((e) => e.cidr)).toEqual(['10.0.0.0/8', '192.168.1.7/32', '2001:db8::/32']);
    expect(replaced.data!.operation).toMatchObject({ type: 'apply_allowlist' });
    const [job] = await query(api, `SELECT name FROM pgboss.job WHERE data->>'operation_id' = $1`, [replaced.data!.operation!.id]);
    expect(job.name).toBe('instance-apply-allowlist');

    const patched = await admin.client.PATCH('/v1/projects/{project}/instances/{instance}/allowlist', {
      params: { path },
      body: { add: [{ cidr: '172.16.0.0/12' }], remove: ['192.168.1.7/32'] },
    });
    expect(patched.data!.items.map((e) => e.cidr).sort()).toEqual(['10.0.0.0/8', '172.16.0.0/12', '2001:db8::/32']);
    expect((await get()).data!.items).toHaveLength(3);
  });

  it('rejects bad CIDRs and more than 1000 entries with 400', async () => {
    for (const cidr of ['10.0.0.0/33', 'banana', '10.0.0.1/8', '::1/129', '1.2.3.4/8/9']) {
      const bad = await admin.client.PUT('/v1/projects/{project}/instances/{instance}/allowlist', { params: { path }, body: { entries: [{ cidr }] } });
      expect(bad.response.status, cidr).toBe(400);
    }
    const many = Array.from({ length: 1001 }, (_, i) => ({ cidr: `10.${i >> 8}.${i & 255}.0/24` }));
    expect((await admin.client.PUT('/v1/projects/{project}/instances/{instance}/allowlist', { params: { path }, body: { entries: many } })).response.status).toBe(400);
    const exactly = many.slice(0, 1000);
    expect((await admin.client.PUT('/v1/projects/{project}/instances/{instance}/allowlist', { params: { path }, body: { entries: exactly } })).response.status).toBe(200);
    const over = await admin.client.PATCH('/v1/projects/{project}/instances/{instance}/allowlist', { params: { path }, body: { add: [{ cidr: '8.8.8.8' }] } });
    expect(over.response.status).toBe(400);
    expect(over.error!.code).toBe('allowlist_too_large');
  });
});
