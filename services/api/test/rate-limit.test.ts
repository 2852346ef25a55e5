// 429 with Retry-After once a caller exceeds its rate, and for repeated login attempts.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startApi, type RunningApi } from './support/api-process.js';
import { anonymous, loginAdmin } from './support/clients.js';

let api: RunningApi;

beforeAll(async () => {
  api = await startApi({ BASALT_RATE_LIMIT_RPS: '5', BASALT_LOGIN_ATTEMPTS_PER_MINUTE: '3' });
});
afterAll(() => api?.stop());

it('limits requests per caller', async () => {
  const admin = await loginAdmin(api);
  const statuses = await Promise.all(Array.from({ length: 30 }, () => admin.client.GET('/v1/regions').then((r) => r.response)));
  const limited = statuses.filter((r) => r.status === 429);
  expect(limited.length).toBeGreaterThan(0);
  expect(Number(limited[0]!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  expect(statuses.filter((r) => r.status === 200).length).toBeGreaterThan(0);
});

it('limits login attempts per address and e-mail', async () => {
  const client = anonymous(api);
  const results = [];
  for (let i = 0; i < 5; i++) results.push(await client.POST('/v1/auth/login', { body: { email: 'victim@example.com', password: 'guess' } }));
  expect(results.map((r) => r.response.status)).toContain(429);
  expect(results.find((r) => r.response.status === 429)!.error?.code).toBe('rate_limited');
});
