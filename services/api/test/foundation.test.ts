// The foundation: migrations apply on a fresh database, the catalog and admin are seeded, login works.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { startApi, type RunningApi } from './support/api-process.js';

let api: RunningApi;

beforeAll(async () => {
  api = await startApi();
});
afterAll(async () => {
  await api?.stop();
});

describe('foundation', () => {
  it('applies migrations and reports them in /v1/health', async () => {
    const response = await fetch(`${api.baseUrl}/v1/health`);
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toEqual({ status: 'ok', database: 'ok', migrations: expect.any(Number) });
    expect(body.migrations).toBeGreaterThanOrEqual(1);
    const client = new pg.Client({ connectionString: api.databaseUrl });
    await client.connect();
    const tables = await client.query(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'`);
    const regions = await client.query(`SELECT id FROM regions`);
    const types = await client.query(`SELECT id FROM instance_types ORDER BY sort_order`);
    await client.end();
    expect(tables.rows.map((r) => r.table_name)).toEqual(expect.arrayContaining(['users', 'instances', 'operations']));
    expect(regions.rows.map((r) => r.id)).toContain('local');
    expect(types.rows.map((r) => r.id)).toContain('kv.standard.13xlarge');
  });

  it('logs the seeded admin in with an httpOnly session cookie', async () => {
    const response = await fetch(`${api.baseUrl}/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: api.adminEmail, password: api.adminPassword }),
    });
    expect(response.status).toBe(200);
    const cookie = response.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/basalt_session=/);
    expect(cookie).toMatch(/HttpOnly/i);
    const me = await fetch(`${api.baseUrl}/v1/auth/me`, { headers: { cookie: cookie.split(';')[0]! } });
    expect(me.status).toBe(200);
    const body = await me.json();
    expect(body.user.email).toBe(api.adminEmail);
    expect(body.user.is_admin).toBe(true);
    expect(body.projects).toHaveLength(1);
  });

  it('rejects a wrong password with 401 and the error body', async () => {
    const response = await fetch(`${api.baseUrl}/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: api.adminEmail, password: 'wrong' }),
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ code: 'unauthenticated', request_id: expect.any(String) });
  });

  it('serves the OpenAPI spec and the docs page', async () => {
    const spec = await (await fetch(`${api.baseUrl}/v1/openapi.json`)).json();
    expect(spec.paths['/v1/auth/login']).toBeDefined();
    expect((await fetch(`${api.baseUrl}/docs`)).status).toBe(200);
  });

  it('does not log the admin password', () => {
    expect(api.output()).not.toContain(api.adminPassword);
  });
});

describe('committed OpenAPI spec', () => {
  it('equals the spec the code serves (run `npm run spec -w @basalt/api` after changing routes or DTOs)', async () => {
    const { readFileSync } = await import('node:fs');
    const committed = JSON.parse(readFileSync(new URL('../../../packages/api-client/openapi.json', import.meta.url), 'utf8'));
    const served = await (await fetch(`${api.baseUrl}/v1/openapi.json`)).json();
    expect(served).toEqual(committed);
  });
});
