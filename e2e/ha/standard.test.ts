// Issue 15 through the API on local VMs: a `standard` instance (primary + 1 replica, sync)
// gets two VMs, a floating primary endpoint and a read-only endpoint; a write through the
// primary endpoint is read back through the read-only one; the replica refuses writes.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startProvisioningPlatform, type ProvisioningPlatform } from '../provisioning/support/stack.js';
import { AckWriter, connected, endpointOf, killVm, missingKeys, primaryNode, writesDuring, type Credentials, type Instance } from './support/ha.js';

let platform: ProvisioningPlatform;
let instance: Instance;
let user: Credentials;

beforeAll(async () => {
  platform = await startProvisioningPlatform('ha_standard', { BASALT_FAILOVER_INTERVAL_MS: '1000' });
});
afterAll(async () => {
  await platform?.stop();
});

describe('a standard instance', () => {
  test('POST architecture standard → running with a primary and a replica on two VMs', async () => {
    const started = Date.now();
    const { data, response } = await platform.client.POST('/v1/projects/{project}/instances', {
      params: { path: { project: platform.projectId } },
      body: { name: 'ha', instance_type: 'kv.standard.small', region: 'local', architecture: 'standard', replicas: 1, parameters: { replication_mode: 'sync', fsync: 'always' } },
    });
    expect(response.status, JSON.stringify(data)).toBe(202);
    user = data!.default_user;
    instance = await platform.waitForStatus(data!.instance.id, ['running'], 300_000);
    console.log(`standard POST → running: ${((Date.now() - started) / 1000).toFixed(1)} s`);
    expect(instance.nodes.map((n) => [n.role, n.status])).toEqual([
      ['primary', 'running'],
      ['replica', 'running'],
    ]);
    expect(new Set(instance.nodes.map((n) => n.private_ip)).size).toBe(2);
    const primary = endpointOf(instance, 'primary');
    const readonly = endpointOf(instance, 'readonly');
    expect(instance.nodes.map((n) => n.private_ip)).not.toContain(primary.host);
    expect(instance.connection_uri).toBe(`redis://default:********@${primary.host}:6379`);
    expect(readonly.host).not.toBe(primary.host);
  });

  test('a write through the primary endpoint is on the replica when acknowledged (sync), which refuses writes', async () => {
    const writer = await connected(endpointOf(instance, 'primary'), user);
    const reader = await connected(endpointOf(instance, 'readonly'), user);
    try {
      expect(await writer.set('ha:first', 'kept')).toBe('OK');
      expect(await reader.get('ha:first')).toBe('kept');
      await expect(reader.set('ha:replica', 'no')).rejects.toThrow(/READONLY/);
      const role = (await writer.call('ROLE').catch((e: Error) => e.message)) as unknown;
      console.log(`ROLE through the primary endpoint: ${JSON.stringify(role)}`);
      // The failover monitor records the replica's lag as its primary reports it.
      await expect
        .poll(async () => (await platform.getInstance(instance.id)).nodes.find((n) => n.role === 'replica')?.lag_bytes, { timeout: 30_000, interval: 500 })
        .toBeTypeOf('number');
    } finally {
      writer.disconnect();
      reader.disconnect();
    }
  });

  test('SIGKILL of the primary VM: the replica takes over the same endpoint, every acknowledged write is there, a fresh replica is rebuilt', async () => {
    const client = await connected(endpointOf(instance, 'primary'), user);
    const writer = new AckWriter(client, 'kill');
    try {
      writer.start();
      await writer.waitForAcks(200);
      const victim = primaryNode(instance);
      const killedAt = Date.now();
      killVm(platform.dataDir, victim.name);
      await writer.waitForRecovery(50, 60_000);
      await writer.stop();
      const outage = writer.outages[0]!;
      console.log(`SIGKILL of ${victim.name}: writes failed for ${outage.endedAt - outage.startedAt} ms (kill → first acknowledged write ${outage.endedAt - killedAt} ms); ${writer.acked.length} acknowledged; errors ${JSON.stringify(outage.errors)}`);
      expect(await missingKeys(client, writer.acked)).toEqual([]);

      // The address moves first, the row says so a moment later.
      await expect.poll(async () => primaryNode(await platform.getInstance(instance.id)).name, { timeout: 30_000, interval: 200 }).not.toBe(victim.name);
      const after = await platform.getInstance(instance.id);
      expect(after.endpoints.find((e) => e.role === 'primary')!.host).toBe(endpointOf(instance, 'primary').host);
      const operation = await platform.waitForOperation(after.current_operation_id!, 300_000);
      expect(operation.status, JSON.stringify(operation.error)).toBe('succeeded');
      expect(operation.type).toBe('failover');
      console.log(`failover steps: ${JSON.stringify(operation.steps)}`);
      const rebuilt = await platform.getInstance(instance.id);
      expect(rebuilt.nodes.find((n) => n.name === victim.name)).toMatchObject({ role: 'replica', status: 'running' });
      instance = rebuilt;
    } finally {
      await writer.stop();
      client.disconnect();
    }
  });

  /** Runs `action` while a client writes through the primary endpoint; the failed-write windows, with no acknowledged write missing. */
  async function underWrites(prefix: string, action: () => Promise<void>): Promise<{ windows: number[]; acked: number }> {
    const { windows, acked, missing } = await writesDuring(endpointOf(instance, 'primary'), user, prefix, action);
    expect(missing).toEqual([]);
    return { windows, acked };
  }

  /** POSTs an instance action and waits for its operation to succeed. */
  async function act(action: 'failover' | 'restart') {
    const path = { project: platform.projectId, instance: instance.id };
    const { data, response } =
      action === 'failover'
        ? await platform.client.POST('/v1/projects/{project}/instances/{instance}/failover', { params: { path } })
        : await platform.client.POST('/v1/projects/{project}/instances/{instance}/restart', { params: { path } });
    expect(response.status).toBe(202);
    const operation = await platform.waitForOperation(data!.operation!.id, 300_000);
    expect(operation.status, JSON.stringify(operation.error)).toBe('succeeded');
    return operation;
  }

  test('POST /failover switches over to the replica with no acknowledged write lost', async () => {
    const before = primaryNode(instance);
    const { windows, acked } = await underWrites('switch', async () => void (await act('failover')));
    console.log(`switchover: write failures ${JSON.stringify(windows)} ms; ${acked} acknowledged`);
    const after = await platform.getInstance(instance.id);
    expect(primaryNode(after).name).not.toBe(before.name);
    expect(after.nodes.map((n) => n.status)).toEqual(['running', 'running']);
    instance = after;
  });

  test('POST /restart rolls node by node: writes pause only for the switchover, none lost', async () => {
    const before = primaryNode(instance);
    let steps: string[] = [];
    const { windows, acked } = await underWrites('restart', async () => {
      steps = (await act('restart')).steps.map((step) => step.name);
    });
    console.log(`rolling restart: write failures ${JSON.stringify(windows)} ms; ${acked} acknowledged; steps ${JSON.stringify(steps)}`);
    const after = await platform.getInstance(instance.id);
    expect(primaryNode(after).name).not.toBe(before.name);
    expect(after.status).toBe('running');
    expect(after.nodes.map((n) => n.status)).toEqual(['running', 'running']);
    instance = after;
  });

  test('PATCH instance_type resizes node by node; writes pause only briefly, none lost', async () => {
    const path = { project: platform.projectId, instance: instance.id };
    const { windows, acked } = await underWrites('resize', async () => {
      const { data, response } = await platform.client.PATCH('/v1/projects/{project}/instances/{instance}', { params: { path }, body: { instance_type: 'kv.standard.large' } });
      expect(response.status, JSON.stringify(data)).toBe(202);
      const operation = await platform.waitForOperation(data!.operation!.id, 300_000);
      expect(operation.status, JSON.stringify(operation.error)).toBe('succeeded');
    });
    console.log(`resize (node by node): write failures ${JSON.stringify(windows)} ms; ${acked} acknowledged`);
    const after = await platform.getInstance(instance.id);
    expect(after).toMatchObject({ instance_type: 'kv.standard.large', status: 'running' });
    expect(after.nodes.map((n) => [n.role, n.status]).sort()).toEqual([
      ['primary', 'running'],
      ['replica', 'running'],
    ]);
    instance = after;
  });
});
