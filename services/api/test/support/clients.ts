// Typed clients for a running API: log in as someone (session cookie) or use an API key.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createBasaltClient, type BasaltClient } from '@basalt/api-client';
import type { RunningApi } from './api-process.js';

export interface Caller {
  client: BasaltClient;
  email: string;
  password: string;
  userId: string;
  defaultProjectId: string;
  cookie: string;
}

export async function login(api: RunningApi, email: string, password: string): Promise<Caller> {
  const anonymous = createBasaltClient({ baseUrl: api.baseUrl });
  const { data, response } = await anonymous.POST('/v1/auth/login', { body: { email, password } });
  if (!data) throw new Error(`login failed for ${email}: ${response.status}`);
  const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0]!;
  return {
    client: createBasaltClient({ baseUrl: api.baseUrl, sessionCookie: cookie }),
    email,
    password,
    userId: data.user.id,
    defaultProjectId: data.projects[0]!.id,
    cookie,
  };
}

export function loginAdmin(api: RunningApi): Promise<Caller> {
  return login(api, api.adminEmail, api.adminPassword);
}

/** A new non-admin user (created by the admin) with their own default project, logged in. */
export async function newUser(api: RunningApi, admin: Caller): Promise<Caller> {
  const email = `user-${randomBytes(4).toString('hex')}@example.com`;
  const password = `pw-${randomBytes(8).toString('hex')}`;
  const { response } = await admin.client.POST('/v1/users', { body: { email, password } });
  if (response.status !== 201) throw new Error(`createUser failed: ${response.status}`);
  return login(api, email, password);
}

export function anonymous(api: RunningApi): BasaltClient {
  return createBasaltClient({ baseUrl: api.baseUrl });
}

/** Runs SQL against the API's own database (to look at what it stored, or at queued jobs). */
export async function query<T extends pg.QueryResultRow = any>(api: RunningApi, text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: api.databaseUrl });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

export const createBody = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  instance_type: 'kv.standard.small',
  region: 'local',
  ...extra,
});
