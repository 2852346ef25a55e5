// Issue 15's partition acceptance: the primary of a standard instance (sync, fsync always) is
// cut off the bridge but keeps running. Its own engine, asked from inside its VM, must stop
// acknowledging writes within the failover timeout (a sync write needs a replica's ack); the
// replica takes over the primary endpoint; the old primary is fenced, and once the bridge is
// healed it is back as a replica. No write acknowledged anywhere is lost.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startProvisioningPlatform, type ProvisioningPlatform } from '../provisioning/support/stack.js';
import { AckWriter, connected, endpointOf, heal, missingKeys, partition, primaryNode, sleep, vmNetns, writeInsideVm, type Credentials, type Instance } from './support/ha.js';

let platform: ProvisioningPlatform;

beforeAll(async () => {
  platform = await startProvisioningPlatform('ha_partition');
});
afterAll(async () => {
  await platform?.stop();
});

describe('a partitioned primary', () => {
  test('stops acknowledging writes, loses its place to the replica, and rejoins as a replica; nothing acknowledged is lost', async () => {
    const { data } = await platform.client.POST('/v1/projects/{project}/instances', {
      params: { path: { project: platform.projectId } },
      body: { name: 'partition', instance_type: 'kv.standard.small', region: 'local', architecture: 'standard', replicas: 1, parameters: { replication_mode: 'sync', fsync: 'always' } },
    });
    const user: Credentials = data!.default_user;
    let instance: Instance = await platform.waitForStatus(data!.instance.id, ['running'], 300_000);
    const client = await connected(endpointOf(instance, 'primary'), user);
    const writer = new AckWriter(client, 'partition');
    const victim = primaryNode(instance);
    const netns = vmNetns(platform.dataDir, victim.name);
    expect(await writeInsideVm(netns, user, 'inside:before')).toBe('OK');
    writer.start();
    const insideAcked: string[] = ['inside:before'];
    try {
      await writer.waitForAcks(100);
      const cutAt = Date.now();
      partition(platform.dataDir, victim.name);
      // From inside the cut-off VM: how long its engine still acknowledges writes.
      let lastInsideOk = cutAt;
      let refusal = '';
      for (let i = 0; Date.now() - cutAt < 15_000; i++) {
        const reply = await writeInsideVm(netns, user, `inside:${i}`);
        if (reply === 'OK') {
          insideAcked.push(`inside:${i}`);
          lastInsideOk = Date.now();
        } else {
          refusal = reply;
          break;
        }
        await sleep(100);
      }
      console.log(`partition: the old primary acknowledged writes for ${lastInsideOk - cutAt} ms after the cut (${insideAcked.length - 1} acked inside), then: ${refusal}`);
      expect(refusal).not.toBe('');
      await writer.waitForRecovery(20, 60_000);
      const outage = writer.outages.at(-1)!;
      console.log(`partition: writes through the primary endpoint failed for ${outage.endedAt - outage.startedAt} ms (cut → first acknowledged write ${outage.endedAt - cutAt} ms)`);
      heal(platform.dataDir, victim.name);
      await writer.waitForAcks(writer.acked.length + 50);
    } finally {
      await writer.stop();
    }
    expect(await missingKeys(client, [...writer.acked, ...insideAcked])).toEqual([]);

    const deadline = Date.now() + 300_000;
    for (;;) {
      instance = await platform.getInstance(instance.id);
      const old = instance.nodes.find((n) => n.name === victim.name)!;
      if (old.role === 'replica' && old.status === 'running') break;
      if (Date.now() > deadline) throw new Error(`old primary not back as a replica: ${JSON.stringify(instance.nodes)}`);
      await sleep(1000);
    }
    expect(primaryNode(instance).name).not.toBe(victim.name);
    const reader = await connected(endpointOf(instance, 'readonly'), user);
    try {
      // The rejoined replica serves the read-only endpoint with every acknowledged write.
      await sleep(500);
      expect(await missingKeys(reader, writer.acked)).toEqual([]);
    } finally {
      reader.disconnect();
      client.disconnect();
    }
  }, 900_000);
});
