// Issue 12 through the running API: stored idempotent responses hold no secret and a replay
// checks access again; the audit log takes no rows from strangers; cookie-authenticated changes
// from another origin are refused; the session cookie is Secure over HTTPS; login limits hold
// per account, per address and overall.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type RunningApi } from './support/api-process.js';
import { anonymous, type Caller, createBody, loginAdmin, newUser, query } from './support/clients.js';

let api: RunningApi;
let admin: Caller;

beforeAll(async () => {
  api = await startApi({ BASALT_LOGIN_ATTEMPTS_PER_MINUTE: '3', BASALT_LOGIN_GLOBAL_ATTEMPTS_PER_MINUTE: '40' });
  admin = await loginAdmin(api);
});
afterAll(() => api?.stop());

describe('idempotent replays', () => {
  it('keep no secret in the table and answer a removed member with 404', async () => {
    const bob = await newUser(api, admin);
    const project = admin.defaultProjectId;
    const added = await admin.client.POST('/v1/projects/{project}/members', { params: { path: { project } }, body: { email: bob.email, role: 'member' } });
    expect(added.response.status).toBe(201);
    const request = { params: { path: { project } }, body: createBody('replayed', { password: 'replay-secret-1234' }), headers: { 'Idempotency-Key': 'bob-create-1' } };
    const first = await bob.client.POST('/v1/projects/{project}/instances', request);
    expect(first.response.status).toBe(202);
    expect(first.data!.default_user.password).toBe('replay-secret-1234');

    const again = await bob.client.POST('/v1/projects/{project}/instances', request);
    expect(again.response.headers.get('idempotent-replayed')).toBe('true');
    expect(again.data!.default_user.password).toBe('replay-secret-1234');
    const stored = await query(api, `SELECT response_body::text AS body FROM idempotency_keys WHERE key = 'bob-create-1'`);
    expect(stored).toHaveLength(1);
    expect(stored[0].body).not.toContain('replay-secret-1234');

    expect((await admin.client.DELETE('/v1/projects/{project}/members/{user}', { params: { path: { project, user: bob.userId } } })).response.status).toBe(204);
    const afterRemoval = await bob.client.POST('/v1/projects/{project}/instances', request);
    expect(afterRemoval.response.status).toBe(404);
    expect(JSON.stringify(afterRemoval.error)).not.toContain('replay-secret-1234');
  });
});

describe('the audit log', () => {
  it('takes no row for an unauthenticated call, and keeps a stranger out of a project log', async () => {
    const project = admin.defaultProjectId;
    const before = await query(api, `SELECT count(*)::int AS n FROM audit_log WHERE project_id = $1`, [project]);
    const stranger = await newUser(api, admin);
    for (let i = 0; i < 5; i++) {
      const spam = await anonymous(api).POST('/v1/projects/{project}/instances', { params: { path: { project } }, body: createBody(`spam-${i}`) });
      expect(spam.response.status).toBe(401);
    }
    const probe = await stranger.client.POST('/v1/projects/{project}/instances', { params: { path: { project } }, body: createBody('probe') });
    expect(probe.response.status).toBe(404);
    const after = await query(api, `SELECT count(*)::int AS n FROM audit_log WHERE project_id = $1`, [project]);
    expect(after[0].n).toBe(before[0].n);
    expect(await query(api, `SELECT 1 FROM audit_log WHERE user_id IS NULL`)).toHaveLength(0);
    const strangers = await query(api, `SELECT project_id FROM audit_log WHERE user_id = $1 AND path LIKE '%/instances'`, [stranger.userId]);
    expect(strangers).toEqual([{ project_id: null }]);
  });
});

describe('the shared validation rules', () => {
  it('refuse `=` in a tag key and an IPv4-mapped CIDR that the engine would never match', async () => {
    const project = admin.defaultProjectId;
    const tagged = await admin.client.POST('/v1/projects/{project}/instances', { params: { path: { project } }, body: createBody('tag-eq', { tags: { 'a=b': 'x' } }) });
    expect(tagged.response.status).toBe(400);
    const mapped = await admin.client.POST('/v1/projects/{project}/instances', { params: { path: { project } }, body: createBody('mapped', { allowlist: [{ cidr: '::ffff:10.0.0.0/104' }] }) });
    expect(mapped.response.status).toBe(400);
    expect(JSON.stringify(mapped.error)).toContain('10.0.0.0/8');
  });
});

describe('cookies and origins', () => {
  const post = (headers: Record<string, string>) =>
    fetch(`${api.baseUrl}/v1/projects`, { method: 'POST', headers: { 'content-type': 'application/json', cookie: admin.cookie, ...headers }, body: JSON.stringify({ name: 'csrf' }) });

  it('refuses a cookie-authenticated change from another origin (403) and takes one from its own', async () => {
    const forged = await post({ origin: 'http://evil.example' });
    expect(forged.status).toBe(403);
    expect((await forged.json()).code).toBe('forbidden');
    expect((await post({ origin: 'null' })).status).toBe(403);
    expect((await post({ origin: api.baseUrl })).status).toBe(201);
    // Through the console's proxy: its host and scheme as X-Forwarded-*, from loopback.
    expect((await post({ origin: 'https://console.example', 'x-forwarded-host': 'console.example', 'x-forwarded-proto': 'https' })).status).toBe(201);
    // No Origin at all: not a browser.
    expect((await post({})).status).toBe(201);
  });

  it('marks the session cookie Secure when the request came over HTTPS', async () => {
    const login = (headers: Record<string, string>) =>
      fetch(`${api.baseUrl}/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ email: api.adminEmail, password: api.adminPassword }) });
    const https = await login({ 'x-forwarded-proto': 'https' });
    expect(https.status).toBe(200);
    expect(https.headers.get('set-cookie')).toMatch(/;\s*Secure/i);
    const plain = await login({});
    expect(plain.headers.get('set-cookie')).not.toMatch(/;\s*Secure/i);
  });
});

describe('login limits', () => {
  const attempt = (email: string, address: string) =>
    fetch(`${api.baseUrl}/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': address }, body: JSON.stringify({ email, password: 'wrong-guess' }) }).then((r) => r.status);

  it('limit one account tried from many addresses', async () => {
    const statuses = [];
    for (let i = 0; i < 12; i++) statuses.push(await attempt('victim@example.com', `198.51.100.${i + 1}`));
    expect(statuses.slice(0, 9).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(9)).toContain(429);
  });

  it('limit one address spraying a password over many accounts', async () => {
    const statuses = [];
    for (let i = 0; i < 12; i++) statuses.push(await attempt(`spray-${i}@example.com`, '203.0.113.7'));
    expect(statuses.slice(0, 9).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(9)).toContain(429);
  });

  it('limit all attempts together', async () => {
    const statuses = [];
    for (let i = 0; i < 30; i++) statuses.push(await attempt(`all-${i}@example.com`, `192.0.2.${i + 1}`));
    expect(statuses).toContain(429);
  });
});
