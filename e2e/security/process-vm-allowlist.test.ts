// Issue 43: on process VMs (engines on loopback twins of their pool addresses) the allowlist
// means what it means on nspawn VMs. Loopback used to be admitted always, so every client on
// this host — another tenant's, a benchmark run — passed any allowlist; now a client on this
// host is 127.0.0.1 to the engine, admitted only when the allowlist says so, while the control
// plane's own user still passes (health checks, live changes).
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { ProvisioningPlatform } from '../provisioning/support/stack.js';
import { commandAs, createRunningInstance, endpointOf, instancePath, startSecurityPlatform } from './support.js';

let platform: ProvisioningPlatform;

beforeAll(async () => {
  platform = await startSecurityPlatform('sec_pvm_allow');
}, 300_000);

afterAll(async () => {
  await platform?.stop();
});

test('a client on this host is refused unless the allowlist admits loopback; the control plane still gets in', async () => {
  const { instance, password } = await createRunningInstance(platform, { name: 'walled', allowlist: [{ cidr: '10.0.0.0/8', description: 'not this host' }] });
  const endpoint = endpointOf(instance);
  const user = { username: 'default', password };
  expect(String(await commandAs(endpoint, user, 'PING'))).toMatch(/client address 127\.0\.0\.1 is not in the allowlist/);

  // A live change is made by the control plane's user from this host: it still applies.
  const { data } = await platform.client.PUT('/v1/projects/{project}/instances/{instance}/allowlist', {
    params: { path: instancePath(platform, instance) },
    body: { entries: [{ cidr: '127.0.0.1/32', description: 'this host' }] },
  });
  const done = await platform.waitForOperation(data!.operation!.id, 120_000);
  expect(done.status, JSON.stringify(done.error)).toBe('succeeded');
  expect(await commandAs(endpoint, user, 'PING')).toBe('PONG');
});
