// Bad input that once reached PostgreSQL and came back as a 500: null for an optional field,
// text PostgreSQL cannot store (NUL, unpaired surrogates), a cursor of year 0, and two users
// created at once with one e-mail. Each must be a 4xx with the house error body.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type RunningApi } from './support/api-process.js';
import { type Caller, createBody, loginAdmin, query } from './support/clients.js';

let api: RunningApi;
let admin: Caller;
let project: string;
let instance: string;

beforeAll(async () => {
  api = await startApi();
  admin = await loginAdmin(api);
  project = (await admin.client.POST('/v1/projects', { body: { name: 'bad-input' } })).data!.id;
  instance = (await send('POST', `/v1/projects/${project}/instances`, JSON.stringify(createBody('bad-input-1')))).body.instance.id;
});
afterAll(() => api?.stop());

/** Sends the body text exactly as given, so that escapes such as \ud800 reach the server unchanged. */
async function send(method: string, path: string, body?: string): Promise<{ status: number; body: any }> {
  const response = await fetch(`${api.baseUrl}${path}`, {
    method,
    headers: { cookie: admin.cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body,
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

function expectHouseError(result: { status: number; body: any }, status: number, code: string, mentions?: string): void {
  expect(result.status, JSON.stringify(result.body)).toBe(status);
  expect(result.body).toMatchObject({ code, message: expect.any(String), request_id: expect.any(String) });
  if (mentions) expect(result.body.message).toContain(mentions);
}

const instancePath = () => `/v1/projects/${project}/instances/${instance}`;
const cursorOf = (value: Record<string, unknown>) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('null for an optional field', () => {
  it('is a 400 naming the field on PATCH, and the instance keeps its values', async () => {
    for (const field of ['name', 'tags', 'deletion_protection', 'instance_type', 'disk_gib']) {
      expectHouseError(await send('PATCH', instancePath(), JSON.stringify({ [field]: null })), 400, 'invalid_request', field);
    }
    const [row] = await query(api, 'SELECT name, tags, deletion_protection FROM instances WHERE id = $1', [instance]);
    expect(row).toMatchObject({ name: 'bad-input-1', tags: {}, deletion_protection: false });
  });

  it('is a 400 for a parameter on PATCH, before any check of the state, and nothing is stored or started', async () => {
    expectHouseError(await send('PATCH', instancePath(), JSON.stringify({ parameters: { fsync: null } })), 400, 'invalid_request', 'parameters.fsync');
    expect((await send('GET', instancePath())).body.parameters).not.toHaveProperty('fsync', null);
    const operations = await send('GET', `${instancePath()}/operations`);
    expect(operations.body.items.map((o: { type: string }) => o.type)).toEqual(['create']);
  });

  it('is a 400 for a parameter on create', async () => {
    const body = createBody('null-maxclients', { parameters: { maxclients: null } });
    expectHouseError(await send('POST', `/v1/projects/${project}/instances`, JSON.stringify(body)), 400, 'invalid_request', 'parameters.maxclients');
  });

  it('is a 400 in an allowlist PATCH', async () => {
    expectHouseError(await send('PATCH', `${instancePath()}/allowlist`, JSON.stringify({ add: null, remove: ['10.0.0.0/8'] })), 400, 'invalid_request', 'add');
  });
});

describe('text PostgreSQL cannot store', () => {
  it('is a 400 naming the query parameter', async () => {
    expectHouseError(await send('GET', `/v1/projects/${project}/instances?name=%00`), 400, 'invalid_request', 'name');
    expectHouseError(await send('GET', `/v1/projects/${project}/instances?tag=a:%00`), 400, 'invalid_request', 'tag');
  });

  it('is a 400 naming the body field, for NUL and for an unpaired surrogate', async () => {
    const cases: [string, string, string, string][] = [
      ['POST', `/v1/projects/${project}/instances`, JSON.stringify(createBody('nul-tag', { tags: { a: '\u0000' } })), 'tags.a'],
      ['POST', `/v1/projects/${project}/instances`, JSON.stringify(createBody('lone-tag', { tags: { a: '\ud800' } })), 'tags.a'],
      ['POST', `/v1/projects/${project}/instances`, JSON.stringify(createBody('nul-allow', { allowlist: [{ cidr: '10.0.0.0/8', description: '\u0000' }] })), 'allowlist.0.description'],
      ['PUT', `${instancePath()}/allowlist`, JSON.stringify({ entries: [{ cidr: '10.0.0.0/8', description: 'a\u0000' }] }), 'entries.0.description'],
      ['POST', '/v1/api-keys', JSON.stringify({ name: '\u0000x' }), 'name'],
      ['POST', '/v1/projects', JSON.stringify({ name: 'x\u0000' }), 'name'],
      ['POST', '/v1/projects', JSON.stringify({ name: 'x\udc00' }), 'name'],
    ];
    for (const [method, path, body, field] of cases) {
      expectHouseError(await send(method, path, body), 400, 'invalid_request', field);
    }
    const stored = await query(api, `SELECT name FROM projects WHERE name LIKE 'x%'`);
    expect(stored).toEqual([]);
  });

  it('is a 400 in a name-sorted cursor', async () => {
    const cursor = cursorOf({ v: 'a\u0000', id: '00000000-0000-4000-8000-000000000000' });
    expectHouseError(await send('GET', `/v1/projects/${project}/instances?sort=name&cursor=${cursor}`), 400, 'invalid_cursor');
  });
});

describe('a cursor of year 0', () => {
  const id = '00000000-0000-4000-8000-000000000000';

  it('is a 400 on the instance list', async () => {
    const cursor = cursorOf({ v: '0000-01-01T00:00:00Z', id });
    expectHouseError(await send('GET', `/v1/projects/${project}/instances?cursor=${cursor}`), 400, 'invalid_cursor');
  });

  it('is a 400 on the operation list', async () => {
    const cursor = cursorOf({ t: '0000-01-01T00:00:00Z', id });
    expectHouseError(await send('GET', `${instancePath()}/operations?cursor=${cursor}`), 400, 'invalid_cursor');
  });
});

describe('two users created at once with one e-mail', () => {
  it('gives one 201 and 409s, never a 500', async () => {
    const body = JSON.stringify({ email: 'twin@example.com', password: 'pw-twin-twin-twin' });
    const results = await Promise.all(Array.from({ length: 6 }, () => send('POST', '/v1/users', body)));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    for (const result of results.filter((r) => r.status !== 201)) expectHouseError(result, 409, 'duplicate_email');
  });
});
