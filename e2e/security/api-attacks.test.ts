// Issue 12's attacks on the control plane's API, through the public API as `npm start` runs it:
// - an idempotent replay by someone removed from the project returned the stored response,
//   new password included, and the table kept it in clear for 24 h;
// - anyone could fill another project's audit log with unauthenticated POSTs;
// - a page on another origin could make changes with the victim's session cookie.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createBasaltClient, type BasaltClient } from '@basalt/api-client';
import type { ProvisioningPlatform } from '../provisioning/support/stack.js';
import { startSecurityPlatform } from './support.js';

let platform: ProvisioningPlatform;

beforeAll(async () => {
  platform = await startSecurityPlatform('sec_api');
}, 300_000);

afterAll(async () => {
  await platform?.stop();
});

async function sql<T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: platform.databaseUrl });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/** A second person, made by the admin, logged in with a session cookie. */
async function newPerson(): Promise<{ client: BasaltClient; email: string; userId: string; cookie: string }> {
  const email = `person-${randomBytes(4).toString('hex')}@e2e.test`;
  const password = `pw-${randomBytes(8).toString('hex')}`;
  const made = await platform.client.POST('/v1/users', { body: { email, password } });
  expect(made.response.status).toBe(201);
  const login = await createBasaltClient({ baseUrl: platform.apiUrl }).POST('/v1/auth/login', { body: { email, password } });
  const cookie = (login.response.headers.get('set-cookie') ?? '').split(';')[0]!;
  return { client: createBasaltClient({ baseUrl: platform.apiUrl, sessionCookie: cookie }), email, userId: login.data!.user.id, cookie };
}

describe('idempotent replays', () => {
  test('keep no secret in the table, and a member removed since gets 404, not the password', async () => {
    const bob = await newPerson();
    const project = platform.projectId;
    expect((await platform.client.POST('/v1/projects/{project}/members', { params: { path: { project } }, body: { email: bob.email, role: 'member' } })).response.status).toBe(201);
    const secret = `replay-${randomBytes(6).toString('hex')}`;
    // An instance in `creating` takes user changes without a live operation.
    const request = {
      params: { path: { project } },
      body: { name: 'replayed', instance_type: 'kv.standard.small', region: 'local', password: secret },
      headers: { 'Idempotency-Key': 'bob-1' },
    };
    const first = await bob.client.POST('/v1/projects/{project}/instances', request);
    expect(first.response.status).toBe(202);
    expect(first.data!.default_user.password).toBe(secret);
    const replay = await bob.client.POST('/v1/projects/{project}/instances', request);
    expect(replay.response.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.data!.default_user.password).toBe(secret);

    const stored = await sql<{ body: string }>(`SELECT response_body::text AS body FROM idempotency_keys WHERE key = 'bob-1'`);
    expect(stored).toHaveLength(1);
    expect(stored[0]!.body).not.toContain(secret);

    expect((await platform.client.DELETE('/v1/projects/{project}/members/{user}', { params: { path: { project, user: bob.userId } } })).response.status).toBe(204);
    const afterRemoval = await bob.client.POST('/v1/projects/{project}/instances', request);
    expect(afterRemoval.response.status).toBe(404);
    expect(JSON.stringify(afterRemoval.error)).not.toContain(secret);
  });
});

describe('the audit log', () => {
  test('takes no row for unauthenticated spam and none in a project its caller is not a member of', async () => {
    const project = platform.projectId;
    const count = async () => (await sql<{ n: number }>(`SELECT count(*)::int AS n FROM audit_log WHERE project_id = $1`, [project]))[0]!.n;
    const before = await count();
    const anonymous = createBasaltClient({ baseUrl: platform.apiUrl });
    for (let i = 0; i < 10; i++) {
      const spam = await anonymous.POST('/v1/projects/{project}/instances', { params: { path: { project } }, body: { name: `spam-${i}`, instance_type: 'kv.standard.small', region: 'local' } });
      expect(spam.response.status).toBe(401);
    }
    const stranger = await newPerson();
    const probe = await stranger.client.POST('/v1/projects/{project}/instances', { params: { path: { project } }, body: { name: 'probe', instance_type: 'kv.standard.small', region: 'local' } });
    expect(probe.response.status).toBe(404);
    expect(await count()).toBe(before);
    expect(await sql(`SELECT 1 FROM audit_log WHERE user_id IS NULL`)).toHaveLength(0);
    const log = await platform.client.GET('/v1/projects/{project}/audit-log', { params: { path: { project } } });
    expect(log.data!.items.some((entry) => entry.path.includes('spam') || entry.status_code === 401)).toBe(false);
  });
});

describe('cross-site requests', () => {
  test('a POST with the session cookie from another origin is refused (403); the console origin is not', async () => {
    const person = await newPerson();
    const post = (headers: Record<string, string>) =>
      fetch(`${platform.apiUrl}/v1/projects`, { method: 'POST', headers: { 'content-type': 'application/json', cookie: person.cookie, ...headers }, body: JSON.stringify({ name: 'csrf' }) });
    const forged = await post({ origin: 'https://evil.example' });
    expect(forged.status).toBe(403);
    expect((await forged.json()).code).toBe('forbidden');
    expect((await post({ origin: platform.apiUrl })).status).toBe(201);
    const projects = await person.client.GET('/v1/projects');
    expect(projects.data!.items.filter((p) => p.name === 'csrf')).toHaveLength(1);
  });
});
