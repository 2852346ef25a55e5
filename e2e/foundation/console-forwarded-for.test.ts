// The console's /v1 proxy tells the API who the caller is with X-Forwarded-For, and the API trusts
// it from loopback for per-address rate limits and the audit log. A browser must not be able to
// choose that address: a spoofed header through the console is replaced by the real peer.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startTestPlatform } from '../support/platform.js';

let platform: Awaited<ReturnType<typeof startTestPlatform>>;

beforeAll(async () => {
  platform = await startTestPlatform({ console: true });
}, 240_000);
afterAll(() => platform?.stop());

test('a client X-Forwarded-For sent through the console does not reach the audit log', async () => {
  const consoleUrl = platform.consoleUrl!;
  const login = await fetch(`${consoleUrl}/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.9' },
    body: JSON.stringify(platform.admin),
  });
  expect(login.status).toBe(200);
  const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
  const project = ((await login.json()) as { projects: { id: string }[] }).projects[0]!.id;

  const renamed = await fetch(`${consoleUrl}/v1/projects/${project}`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json', cookie, 'x-forwarded-for': '203.0.113.9, 198.51.100.7' },
    body: JSON.stringify({ name: 'renamed through the console' }),
  });
  expect(renamed.status).toBe(200);

  // The audit entry is written once the response has gone out, so it may lag a moment.
  let entries: { method: string; ip: string | null }[] = [];
  for (let i = 0; i < 50 && !entries.some((e) => e.method === 'PATCH'); i++) {
    const audit = await fetch(`${platform.apiUrl}/v1/projects/${project}/audit-log`, { headers: { cookie } });
    entries = ((await audit.json()) as { items: typeof entries }).items;
    await new Promise((r) => setTimeout(r, 100));
  }
  const patch = entries.find((e) => e.method === 'PATCH');
  expect(patch?.ip).toMatch(/^(::ffff:)?127\.0\.0\.1$|^::1$/);
  expect(JSON.stringify(entries)).not.toMatch(/203\.0\.113\.9|198\.51\.100\.7/);
}, 60_000);
