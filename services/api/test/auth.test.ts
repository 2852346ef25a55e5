// Sessions, API keys, admin-created users, and the 401/403 error classes, through the typed client.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBasaltClient } from '@basalt/api-client';
import { startApi, type RunningApi } from './support/api-process.js';
import { anonymous, type Caller, login, loginAdmin, newUser, query } from './support/clients.js';

let api: RunningApi;
let admin: Caller;

beforeAll(async () => {
  api = await startApi();
  admin = await loginAdmin(api);
});
afterAll(() => api?.stop());

describe('sessions', () => {
  it('answers 401 without credentials, with the error body', async () => {
    const { error, response } = await anonymous(api).GET('/v1/auth/me');
    expect(response.status).toBe(401);
    expect(error).toMatchObject({ code: 'unauthenticated', request_id: response.headers.get('x-request-id') });
  });

  it('reports the auth method and ends the session on logout', async () => {
    const caller = await loginAdmin(api);
    const me = await caller.client.GET('/v1/auth/me');
    expect(me.data?.auth_method).toBe('session');
    expect((await caller.client.POST('/v1/auth/logout')).response.status).toBe(204);
    const after = await caller.client.GET('/v1/auth/me');
    expect(after.response.status).toBe(401);
  });

  it('rejects a forged session cookie and a malformed login body', async () => {
    const forged = createBasaltClient({ baseUrl: api.baseUrl, sessionCookie: 'basalt_session=forged' });
    expect((await forged.GET('/v1/auth/me')).response.status).toBe(401);
    const bad = await anonymous(api).POST('/v1/auth/login', { body: { email: 'not-an-email', password: '' } });
    expect(bad.response.status).toBe(400);
    expect(bad.error?.details).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'email' })]));
  });

  it('stores password hashes, not passwords', async () => {
    const [row] = await query(api, 'SELECT password_hash FROM users WHERE email = $1', [api.adminEmail]);
    expect(row.password_hash).toMatch(/^scrypt\$/);
    expect(row.password_hash).not.toContain(api.adminPassword);
  });
});

describe('API keys', () => {
  it('shows the key once, stores only its hash, authenticates with Bearer, and stops after revoke', async () => {
    const created = await admin.client.POST('/v1/api-keys', { body: { name: 'terraform' } });
    expect(created.response.status).toBe(201);
    const key = created.data!.key;
    expect(key).toMatch(/^bsk_/);
    expect(key.startsWith(created.data!.api_key.prefix)).toBe(true);
    const rows = await query(api, 'SELECT key_hash FROM api_keys WHERE id = $1', [created.data!.api_key.id]);
    expect(rows[0].key_hash).not.toContain(key);

    const listed = await admin.client.GET('/v1/api-keys');
    expect(JSON.stringify(listed.data)).not.toContain(key);

    const byKey = createBasaltClient({ baseUrl: api.baseUrl, apiKey: key });
    const me = await byKey.GET('/v1/auth/me');
    expect(me.data).toMatchObject({ auth_method: 'api_key', user: { email: api.adminEmail } });
    const used = await admin.client.GET('/v1/api-keys');
    expect(used.data!.items.find((k) => k.id === created.data!.api_key.id)!.last_used_at).not.toBeNull();

    expect((await admin.client.DELETE('/v1/api-keys/{id}', { params: { path: { id: created.data!.api_key.id } } })).response.status).toBe(204);
    expect((await byKey.GET('/v1/auth/me')).response.status).toBe(401);
  });

  it('rejects unknown keys, malformed headers, past expiry and another user’s key id', async () => {
    expect((await createBasaltClient({ baseUrl: api.baseUrl, apiKey: 'bsk_nope_nope' }).GET('/v1/auth/me')).response.status).toBe(401);
    const basic = createBasaltClient({ baseUrl: api.baseUrl, headers: { authorization: 'Basic abc' } });
    expect((await basic.GET('/v1/auth/me')).response.status).toBe(401);
    const past = await admin.client.POST('/v1/api-keys', { body: { name: 'old', expires_at: '2001-01-01T00:00:00Z' } });
    expect(past.response.status).toBe(400);
    const other = await newUser(api, admin);
    const mine = await admin.client.POST('/v1/api-keys', { body: { name: 'mine' } });
    const revoke = await other.client.DELETE('/v1/api-keys/{id}', { params: { path: { id: mine.data!.api_key.id } } });
    expect(revoke.response.status).toBe(404);
  });
});

describe('API keys made with API keys (issue 43)', () => {
  const inHours = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString();

  it('cannot outlive the key that made them: no expiry or a later one is 400, an earlier one is kept', async () => {
    const parent = await admin.client.POST('/v1/api-keys', { body: { name: 'short-lived', expires_at: inHours(1) } });
    const byParent = createBasaltClient({ baseUrl: api.baseUrl, apiKey: parent.data!.key });
    const forever = await byParent.POST('/v1/api-keys', { body: { name: 'forever' } });
    expect(forever.response.status).toBe(400);
    expect(forever.error).toMatchObject({ code: 'invalid_request', message: expect.stringContaining('cannot outlive'), request_id: expect.any(String) });
    const longer = await byParent.POST('/v1/api-keys', { body: { name: 'longer', expires_at: inHours(24) } });
    expect(longer.response.status).toBe(400);
    expect(longer.error!.message).toContain(parent.data!.api_key.expires_at!);
    const shorter = await byParent.POST('/v1/api-keys', { body: { name: 'shorter', expires_at: inHours(0.5) } });
    expect(shorter.response.status).toBe(201);
    expect(shorter.data!.api_key.parent_id).toBe(parent.data!.api_key.id);
    // From a session there is no parent: a key that never expires is the user's to make.
    const fromSession = await admin.client.POST('/v1/api-keys', { body: { name: 'session-made' } });
    expect(fromSession.data!.api_key).toMatchObject({ parent_id: null, expires_at: null });
  });

  it('are revoked with the key that made them, and theirs with them', async () => {
    const root = await admin.client.POST('/v1/api-keys', { body: { name: 'root' } });
    const byRoot = createBasaltClient({ baseUrl: api.baseUrl, apiKey: root.data!.key });
    const child = await byRoot.POST('/v1/api-keys', { body: { name: 'child' } });
    expect(child.response.status).toBe(201);
    const byChild = createBasaltClient({ baseUrl: api.baseUrl, apiKey: child.data!.key });
    const grandchild = await byChild.POST('/v1/api-keys', { body: { name: 'grandchild' } });
    const byGrandchild = createBasaltClient({ baseUrl: api.baseUrl, apiKey: grandchild.data!.key });
    const sibling = await admin.client.POST('/v1/api-keys', { body: { name: 'sibling' } });
    const bySibling = createBasaltClient({ baseUrl: api.baseUrl, apiKey: sibling.data!.key });
    expect((await byGrandchild.GET('/v1/auth/me')).response.status).toBe(200);

    expect((await admin.client.DELETE('/v1/api-keys/{id}', { params: { path: { id: root.data!.api_key.id } } })).response.status).toBe(204);
    for (const caller of [byRoot, byChild, byGrandchild]) expect((await caller.GET('/v1/auth/me')).response.status).toBe(401);
    expect((await bySibling.GET('/v1/auth/me')).response.status).toBe(200);
    const listed = (await admin.client.GET('/v1/api-keys')).data!.items;
    for (const id of [root, child, grandchild].map((k) => k.data!.api_key.id)) expect(listed.find((k) => k.id === id)!.revoked_at).not.toBeNull();
    expect(listed.find((k) => k.id === sibling.data!.api_key.id)!.revoked_at).toBeNull();
  });
});

describe('users', () => {
  it('lets an admin create a user who starts with a default project', async () => {
    const user = await newUser(api, admin);
    const me = await user.client.GET('/v1/auth/me');
    expect(me.data!.user.is_admin).toBe(false);
    expect(me.data!.projects).toEqual([expect.objectContaining({ name: 'default', role: 'owner' })]);
  });

  it('forbids non-admins (403) and duplicate e-mails (409)', async () => {
    const user = await newUser(api, admin);
    const forbidden = await user.client.POST('/v1/users', { body: { email: 'x@example.com', password: 'long-enough-pw' } });
    expect(forbidden.response.status).toBe(403);
    expect(forbidden.error?.code).toBe('forbidden');
    const duplicate = await admin.client.POST('/v1/users', { body: { email: user.email, password: 'long-enough-pw' } });
    expect(duplicate.response.status).toBe(409);
  });

  it('logs a new user in with their own password', async () => {
    const user = await newUser(api, admin);
    const again = await login(api, user.email, user.password);
    expect(again.userId).toBe(user.userId);
  });
});
