// Issue 12: every credential promise holds on the engine, through the public API and a real
// client (ioredis), on one instance (a process VM):
// - each parameter the API takes is what CONFIG GET answers;
// - the control plane manages the engine as its own user, so `default` made read-only does
//   not break a live allowlist change (it failed with NOPERM while the worker used `default`);
// - deleting `default` leaves no unauthenticated door (a PING answered before);
// - a reset keeps the old password working until revoked or until its window closes, then
//   only the new one works (before, the old one stopped at once);
// - the control plane's own password rotates on a restart without locking the worker out;
// - the engine's environment holds neither the master key nor the database URL.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Schemas } from '@basalt/api-client';
import type { ProvisioningPlatform } from '../provisioning/support/stack.js';
import { MASTER_KEY } from '../provisioning/support/worker-process.js';
import { commandAs, createRunningInstance, endpointOf, instancePath, startSecurityPlatform } from './support.js';

/** The rotation window of this platform: long enough to check both passwords, short enough to wait out. */
const ROTATION_SECONDS = 40;

let platform: ProvisioningPlatform;
let instance: Schemas['InstanceDto'];
let endpoint: { host: string; port: number };
let defaultUser: { username: string; password: string };

beforeAll(async () => {
  platform = await startSecurityPlatform('sec_creds', {
    BASALT_PASSWORD_ROTATION_SECONDS: String(ROTATION_SECONDS),
    BASALT_PASSWORD_EXPIRY_CHECK_MS: '2000',
  });
  const created = await createRunningInstance(platform, { name: 'creds', parameters: { fsync: 'always', maxclients: 77, timeout: 300 } });
  instance = created.instance;
  endpoint = endpointOf(instance);
  defaultUser = { username: 'default', password: created.password };
}, 600_000);

afterAll(async () => {
  await platform?.stop();
});

/** Waits for the operation a change started; fails with its error unless it succeeded. */
async function settled(operation: { id: string } | null | undefined): Promise<void> {
  expect(operation, 'the change should start an operation on a running instance').toBeTruthy();
  const done = await platform.waitForOperation(operation!.id, 240_000);
  expect(done.status, `${JSON.stringify(done.error)}\n${platform.workerLog().slice(-3000)}`).toBe('succeeded');
}

describe('parameters reach the engine', () => {
  test.each([
    ['fsync', 'appendfsync', 'always'],
    ['maxclients', 'maxclients', '77'],
    ['timeout', 'timeout', '300'],
  ])('%s: CONFIG GET %s answers %s', async (_parameter, name, value) => {
    expect(await commandAs(endpoint, defaultUser, 'CONFIG', 'GET', name)).toEqual([name, value]);
  });
});

describe('the control plane uses its own engine user', () => {
  test('a live allowlist change still applies after default is made read-only', async () => {
    const path_ = instancePath(platform, instance);
    const readOnly = await platform.client.PATCH('/v1/projects/{project}/instances/{instance}/users/{username}', {
      params: { path: { ...path_, username: 'default' } },
      body: { permission: 'read_only' },
    });
    await settled(readOnly.data?.operation);
    expect(String(await commandAs(endpoint, defaultUser, 'SET', 'k', 'v'))).toMatch(/NOPERM/);

    const allowlist = await platform.client.PUT('/v1/projects/{project}/instances/{instance}/allowlist', {
      params: { path: path_ },
      body: { entries: [{ cidr: '127.0.0.0/8', description: 'this host' }] },
    });
    await settled(allowlist.data?.operation);
    expect((await platform.getInstance(instance.id)).status).toBe('running');
    expect(await commandAs(endpoint, defaultUser, 'PING')).toBe('PONG');
  });
});

describe('users as the customer sees them', () => {
  let app: { username: string; password: string };

  test('deleting default leaves the engine closed to anyone without a password', async () => {
    const path_ = instancePath(platform, instance);
    const created = await platform.client.POST('/v1/projects/{project}/instances/{instance}/users', {
      params: { path: path_ },
      body: { username: 'app', permission: 'admin' },
    });
    expect(created.response.status).toBe(201);
    await settled(created.data!.operation);
    app = { username: 'app', password: created.data!.password };

    const deleted = await platform.client.DELETE('/v1/projects/{project}/instances/{instance}/users/{username}', {
      params: { path: { ...path_, username: 'default' } },
    });
    await settled(deleted.data?.operation);

    expect(String(await commandAs(endpoint, undefined, 'PING'))).toMatch(/NOAUTH/);
    expect(String(await commandAs(endpoint, defaultUser, 'PING'))).toMatch(/WRONGPASS/);
    expect(await commandAs(endpoint, app, 'PING')).toBe('PONG');
    expect(await commandAs(endpoint, app, 'ACL', 'WHOAMI')).toBe('app');
  });

  test('after a reset both passwords work until the old one is revoked', async () => {
    const path_ = { ...instancePath(platform, instance), username: 'app' };
    const reset = await platform.client.POST('/v1/projects/{project}/instances/{instance}/users/{username}/reset-password', { params: { path: path_ }, body: {} });
    expect(reset.response.status).toBe(200);
    await settled(reset.data!.operation);
    const renewed = { username: 'app', password: reset.data!.password };
    expect(await commandAs(endpoint, app, 'PING')).toBe('PONG');
    expect(await commandAs(endpoint, renewed, 'PING')).toBe('PONG');

    const revoked = await platform.client.POST('/v1/projects/{project}/instances/{instance}/users/{username}/revoke-old-password', { params: { path: path_ } });
    await settled(revoked.data!.operation);
    expect(String(await commandAs(endpoint, app, 'PING'))).toMatch(/WRONGPASS/);
    expect(await commandAs(endpoint, renewed, 'PING')).toBe('PONG');
    app = renewed;
  });

  test('after a reset the old password stops working once its window closes, and the API says until when', async () => {
    const path_ = { ...instancePath(platform, instance), username: 'app' };
    const reset = await platform.client.POST('/v1/projects/{project}/instances/{instance}/users/{username}/reset-password', { params: { path: path_ }, body: {} });
    await settled(reset.data!.operation);
    const renewed = { username: 'app', password: reset.data!.password };
    const validUntil = Date.parse(reset.data!.user.old_password_valid_until!);
    expect(validUntil).toBeGreaterThan(Date.now());
    expect(validUntil).toBeLessThanOrEqual(Date.now() + ROTATION_SECONDS * 1000);
    expect(await commandAs(endpoint, app, 'PING')).toBe('PONG');

    // The worker notices within its check interval and applies the users again.
    const deadline = validUntil + 120_000;
    let old: unknown = 'PONG';
    while (Date.now() < deadline) {
      old = await commandAs(endpoint, app, 'PING');
      if (old !== 'PONG') break;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    expect(Date.now()).toBeGreaterThanOrEqual(validUntil);
    expect(String(old)).toMatch(/WRONGPASS/);
    expect(await commandAs(endpoint, renewed, 'PING')).toBe('PONG');
    const listed = await platform.client.GET('/v1/projects/{project}/instances/{instance}/users', { params: { path: instancePath(platform, instance) } });
    expect(listed.data!.items.find((u) => u.username === 'app')!.old_password_valid_until).toBeNull();
  }, 300_000);
});

describe('the control plane password', () => {
  test('rotates on a restart, and live changes still apply afterwards', async () => {
    const path_ = instancePath(platform, instance);
    const restarted = await platform.client.POST('/v1/projects/{project}/instances/{instance}/restart', { params: { path: path_ } });
    expect(restarted.response.status).toBe(202);
    await settled(restarted.data!.operation);
    await platform.waitForStatus(instance.id, ['running']);
    const allowlist = await platform.client.PUT('/v1/projects/{project}/instances/{instance}/allowlist', {
      params: { path: path_ },
      body: { entries: [{ cidr: '127.0.0.0/8', description: 'this host, again' }] },
    });
    await settled(allowlist.data?.operation);
    expect(String(await commandAs(endpoint, { username: 'basalt:control-plane', password: 'guess-guess-guess' }, 'PING'))).toMatch(/WRONGPASS/);
  });
});

describe('an engine that does not know the control plane user', () => {
  test('is given it again by the next live change (users file installed, reloaded or restarted)', async () => {
    // As a run that failed between installing the users file and reloading it leaves it: the
    // engine started from a users file without the control plane's user.
    const vms = path.join(platform.dataDir, 'vms');
    const vm = path.join(vms, fs.readdirSync(vms)[0]!);
    const usersFile = path.join(vm, 'data', 'users.acl');
    const lines = fs.readFileSync(usersFile, 'utf8').split('\n');
    fs.writeFileSync(usersFile, lines.filter((line) => !line.includes('basalt:')).join('\n'));
    const pidFile = path.join(vm, 'run', 'engine.pid');
    const before = fs.readFileSync(pidFile, 'utf8');
    process.kill(Number(before), 'SIGTERM');
    // Started again by its supervisor (a new pid), and answering (NOAUTH: it wants a password).
    await waitFor(async () => fs.readFileSync(pidFile, 'utf8') !== before && /NOAUTH/.test(String(await commandAs(endpoint, undefined, 'PING'))));

    const allowlist = await platform.client.PUT('/v1/projects/{project}/instances/{instance}/allowlist', {
      params: { path: instancePath(platform, instance) },
      body: { entries: [{ cidr: '127.0.0.0/8', description: 'after the engine lost the control user' }] },
    });
    await settled(allowlist.data?.operation);
    expect((await platform.getInstance(instance.id)).status).toBe('running');
    expect(fs.readFileSync(usersFile, 'utf8')).toContain('basalt:control-plane');
  });
});

/** Waits up to 20 s for `ready` (an engine restarting under its supervisor). */
async function waitFor(ready: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await ready())) {
    if (Date.now() > deadline) throw new Error('not ready after 20 s');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe('child processes', () => {
  test("the engine's environment holds no master key and no database URL", () => {
    const vms = path.join(platform.dataDir, 'vms');
    const pids = fs.readdirSync(vms).map((vm) => Number(fs.readFileSync(path.join(vms, vm, 'run', 'engine.pid'), 'utf8')));
    expect(pids.length).toBeGreaterThan(0);
    for (const pid of pids) {
      const environ = fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
      const names = environ.map((entry) => entry.split('=')[0]);
      expect(names).not.toContain('BASALT_MASTER_KEY');
      expect(names).not.toContain('DATABASE_URL');
      expect(names).not.toContain('PG_CONN_STR');
      expect(environ.join('\n')).not.toContain(MASTER_KEY);
    }
  });
});
