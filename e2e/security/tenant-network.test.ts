// Issue 43: each instance's VMs are a network of their own. From inside a VM's network
// namespace, another tenant's VM, the host's services (API, PostgreSQL, Prometheus, a listener
// on every host address) and a REPLICAOF target on the bridge gateway cannot be reached, while
// the instance's own replication and an allowlisted client work; a client off the allowlist is
// refused by the host's firewall (no TCP connection), not only by the engine; an allowlist
// change through the API moves the firewall with it; a deleted instance's rules go with it.
// Real nspawn VMs through the public API; one stack, three VMs, created at once.
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startProvisioningPlatform, type ProvisioningPlatform } from '../provisioning/support/stack.js';
import { vmNetns, type Credentials, type Instance } from '../ha/support/ha.js';
import { countingListener, createClientNamespace, inNamespace, otherHostAddresses, tcpConnects, topOfRange, type ClientNamespace } from './network-probe.js';

const GATEWAY = '10.77.0.1';
const ENGINE = 6379;

let platform: ProvisioningPlatform;
let allowed: ClientNamespace;
let outsider: ClientNamespace;
let own: { instance: Instance; user: Credentials };
let other: { instance: Instance; user: Credentials };
const started = Date.now();

async function create(body: Record<string, unknown>): Promise<{ instance: Instance; user: Credentials }> {
  const { data, response, error } = await platform.client.POST('/v1/projects/{project}/instances', {
    params: { path: { project: platform.projectId } },
    body: { instance_type: 'kv.standard.small', region: 'local', ...body } as never,
  });
  if (response.status !== 202) throw new Error(`create: ${response.status} ${JSON.stringify(error)}`);
  return { instance: await platform.waitForStatus(data!.instance.id, ['running'], 240_000), user: data!.default_user };
}

function tableName(instance: Instance): string {
  return `basalt_${instance.id.replace(/-/g, '')}`;
}

function basaltTables(): string {
  return execFileSync('nft', ['list', 'tables'], { encoding: 'utf8' });
}

function redisCli(ns: ClientNamespace, host: string, user: Credentials, ...command: string[]): Promise<string> {
  return inNamespace(ns.path, ['redis-cli', '-h', host, '-p', String(ENGINE), '--user', user.username, '--pass', user.password, '--no-auth-warning', ...command]);
}

const primaryHost = (i: Instance) => i.endpoints.find((e) => e.role === 'primary' || e.role === undefined)?.host ?? i.endpoints[0]!.host;
const nodeIp = (i: Instance, role: string) => i.nodes.find((n) => n.role === role)!.private_ip;
const nodeNetns = (i: Instance, role: string) => vmNetns(platform.dataDir, i.nodes.find((n) => n.role === role)!.name);

beforeAll(async () => {
  const range = process.env.BASALT_ADDRESS_RANGE!;
  allowed = createClientNamespace(`${process.pid % 100000}a`, topOfRange(range, 4));
  outsider = createClientNamespace(`${process.pid % 100000}b`, topOfRange(range, 5));
  platform = await startProvisioningPlatform('sec_net');
  [own, other] = await Promise.all([
    create({
      name: 'own',
      architecture: 'standard',
      replicas: 1,
      parameters: { replication_mode: 'sync' },
      allowlist: [{ cidr: `${allowed.address}/32`, description: 'the allowed client' }],
    }),
    // Another tenant whose engine admits everyone: what keeps a VM out is the network.
    create({ name: 'other' }),
  ]);
  console.log(`three VMs running after ${((Date.now() - started) / 1000).toFixed(1)} s`);
}, 300_000);

afterAll(async () => {
  await platform?.stop();
  allowed?.remove();
  outsider?.remove();
  console.log(`tenant-network: ${((Date.now() - started) / 1000).toFixed(1)} s in all`);
});

describe('a tenant network', () => {
  test('each instance has its own Basalt tables on the host', () => {
    const tables = basaltTables();
    for (const instance of [own.instance, other.instance]) {
      expect(tables).toContain(`table bridge ${tableName(instance)}`);
      expect(tables).toContain(`table inet ${tableName(instance)}`);
    }
  });

  test("the instance's own replication works: a write on the primary is read on the replica (sync)", async () => {
    const primary = primaryHost(own.instance);
    expect(await redisCli(allowed, primary, own.user, 'SET', 'net:k', 'v')).toBe('OK');
    expect(await redisCli(allowed, nodeIp(own.instance, 'replica'), own.user, 'GET', 'net:k')).toBe('v');
    expect(await redisCli(allowed, nodeIp(own.instance, 'replica'), own.user, 'INFO', 'replication')).toMatch(/master_link_status:up/);
    // Node to node inside the instance, from the replica's own namespace.
    expect(await tcpConnects(nodeNetns(own.instance, 'replica'), nodeIp(own.instance, 'primary'), ENGINE)).toBe(true);
  });

  test('an allowlisted client gets in; one off the allowlist gets no TCP connection at all', async () => {
    const primary = primaryHost(own.instance);
    expect(await redisCli(allowed, primary, own.user, 'PING')).toBe('PONG');
    const [fromAllowed, fromOutsider, sshFromOutsider, metricsFromOutsider] = await Promise.all([
      tcpConnects(allowed.path, primary, ENGINE),
      tcpConnects(outsider.path, primary, ENGINE),
      tcpConnects(outsider.path, primary, 22),
      tcpConnects(outsider.path, nodeIp(own.instance, 'primary'), 9121),
    ]);
    expect({ fromAllowed, fromOutsider, sshFromOutsider, metricsFromOutsider }).toEqual({ fromAllowed: true, fromOutsider: false, sshFromOutsider: false, metricsFromOutsider: false });
    // The other tenant admits everyone: the outsider reaches it, so the bridge itself works.
    expect(await tcpConnects(outsider.path, nodeIp(other.instance, 'primary'), ENGINE)).toBe(true);
  });

  test("from inside a VM: another tenant's VM, the host's services and every host address are out of reach", async () => {
    const listener = await countingListener();
    try {
      const api = Number(new URL(platform.apiUrl).port);
      const postgres = Number(new URL(platform.databaseUrl).port);
      const vm = nodeNetns(own.instance, 'primary');
      const probes: [string, string, number][] = [
        ["other tenant's engine", nodeIp(other.instance, 'primary'), ENGINE],
        ["other tenant's ssh", nodeIp(other.instance, 'primary'), 22],
        ['API on the gateway', GATEWAY, api],
        ['PostgreSQL on the gateway', GATEWAY, postgres],
        ['Prometheus on the gateway', GATEWAY, 9090],
        ['a listener on the gateway', GATEWAY, listener.port],
        ...otherHostAddresses().map((address): [string, string, number] => [`a listener on ${address}`, address, listener.port]),
        ['off the machine', '192.0.2.200', 80],
      ];
      const fromVm = await Promise.all(probes.map(async ([what, host, port]) => [what, await tcpConnects(vm, host, port)] as const));
      expect(Object.fromEntries(fromVm)).toEqual(Object.fromEntries(probes.map(([what]) => [what, false])));
      // And the other way: the other tenant's VM cannot reach this instance's engine.
      expect(await tcpConnects(nodeNetns(other.instance, 'primary'), primaryHost(own.instance), ENGINE)).toBe(false);
      // The listener is there for anyone on the bridge who is not a VM (the test's client).
      expect(await tcpConnects(allowed.path, GATEWAY, listener.port)).toBe(true);
      expect(await tcpConnects(allowed.path, GATEWAY, api)).toBe(true);
    } finally {
      await listener.close();
    }
  });

  test('REPLICAOF to a listener on the gateway: refused by the engine, and the VM cannot connect there anyway', async () => {
    const listener = await countingListener();
    try {
      const reply = await redisCli(allowed, primaryHost(own.instance), own.user, 'REPLICAOF', GATEWAY, String(listener.port));
      expect(reply).toMatch(/ERR/);
      expect(await tcpConnects(nodeNetns(own.instance, 'primary'), GATEWAY, listener.port)).toBe(false);
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      expect(listener.connections()).toBe(0);
    } finally {
      await listener.close();
    }
  });

  test('an allowlist change through the API moves the firewall: the outsider is let in', async () => {
    const { data, response } = await platform.client.PUT('/v1/projects/{project}/instances/{instance}/allowlist', {
      params: { path: { project: platform.projectId, instance: own.instance.id } },
      body: { entries: [{ cidr: `${allowed.address}/32`, description: 'the allowed client' }, { cidr: `${outsider.address}/32`, description: 'now allowed' }] },
    });
    expect(response.status, JSON.stringify(data)).toBe(200);
    const done = await platform.waitForOperation(data!.operation!.id, 120_000);
    expect(done.status, JSON.stringify(done.error)).toBe('succeeded');
    expect(await redisCli(outsider, primaryHost(own.instance), own.user, 'PING')).toBe('PONG');
  });

  test("a deleted instance's tables go with it", async () => {
    const { response } = await platform.client.DELETE('/v1/projects/{project}/instances/{instance}', {
      params: { path: { project: platform.projectId, instance: other.instance.id } },
    });
    expect(response.status).toBe(202);
    await platform.waitForStatus(other.instance.id, ['deleted'], 120_000);
    expect(basaltTables()).not.toContain(tableName(other.instance));
    expect(basaltTables()).toContain(tableName(own.instance));
  });
});
