// Issue 12 through the running API: the shared validation rules; cookie-authenticated changes
// from another origin are refused (also behind the console's proxy); the session cookie is
// Secure over HTTPS; login limits hold per account, per address and overall. The replay and
// audit attacks are in e2e/security/api-attacks.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type RunningApi } from './support/api-process.js';
import { type Caller, createBody, loginAdmin } from './support/clients.js';

let api: RunningApi;
let admin: Caller;

beforeAll(async () => {
  api = await startApi({ BASALT_LOGIN_ATTEMPTS_PER_MINUTE: '3', BASALT_LOGIN_GLOBAL_ATTEMPTS_PER_MINUTE: '40' });
  admin = await loginAdmin(api);
});
afterAll(() => api?.stop());

describe('the shared validation rules', () => {
  it('refuse `=` in a tag key and an IPv4-mapped CIDR that the engine would never match', async () => {
    const project = admin.defaultProjectId;
    const tagged = await admin.client.POST('/v1/projects/{project}/instances', { params: { path: { project } }, body: createBody('tag-eq', { tags: { 'a=b': 'x' } }) });
    expect(tagged.response.status).toBe(400);
    const mapped = await admin.client.POST('/v1/projects/{project}/instances', { params: { path: { project } }, body: createBody('mapped', { allowlist: [{ cidr: '::ffff:10.0.0.0/104' }] }) });
    expect(mapped.response.status).toBe(400);
    expect(JSON.stringify(mapped.error)).toContain('10.0.0.0/8');
  });

  it('refuse an instance name or username that is a template or a shell word', async () => {
    const project = admin.defaultProjectId;
    for (const name of ['x$(id)', '{{7*7}}', 'a;b', 'a`id`', 'a\nb', 'A%s']) {
      const { response } = await admin.client.POST('/v1/projects/{project}/instances', { params: { path: { project } }, body: createBody(name) });
      expect(response.status, name).toBe(400);
    }
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

  // The 12 attempts go at once: the buckets count them as they arrive, while one at a time on a
  // loaded host (a 32 MiB scrypt each, over a second) they came slower than a bucket of 9 a
  // minute refills. The first 9 to arrive are answered (401), the rest refused.
  const answered = (statuses: number[]) => ({ wrongPassword: statuses.filter((s) => s === 401).length, refused: statuses.filter((s) => s === 429).length });

  it('limit one account tried from many addresses', async () => {
    const statuses = await Promise.all(Array.from({ length: 12 }, (_, i) => attempt('victim@example.com', `198.51.100.${i + 1}`)));
    expect(answered(statuses).wrongPassword).toBeGreaterThanOrEqual(9);
    expect(answered(statuses).refused).toBeGreaterThan(0);
  });

  it('limit one address spraying a password over many accounts', async () => {
    const statuses = await Promise.all(Array.from({ length: 12 }, (_, i) => attempt(`spray-${i}@example.com`, '203.0.113.7')));
    expect(answered(statuses).wrongPassword).toBeGreaterThanOrEqual(9);
    expect(answered(statuses).refused).toBeGreaterThan(0);
  });

  it('limit all attempts together', async () => {
    // Attempts from as many addresses, each on an account of its own, 8 at a time: the global
    // bucket (40, refilled at 40 a minute) runs dry whatever the earlier tests' attempts count
    // for by then, even on a loaded host where one scrypt takes over a second (one at a time, the
    // attempts came slower than the bucket refills, and none was refused).
    const statuses: number[] = [];
    for (let i = 0; i < 120 && !statuses.includes(429); i += 8) {
      statuses.push(...(await Promise.all(Array.from({ length: 8 }, (_, j) => attempt(`all-${i + j}@example.com`, `192.0.2.${i + j + 1}`)))));
    }
    expect(statuses).toContain(429);
  });
});
