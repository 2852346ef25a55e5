// Point-in-time restore across a failover (issue 44): a standard instance (sync, fsync always)
// is backed up, switched over to its replica, and written again; the archive follows the new
// primary on a new timeline, which gets a base at once; a restore to a point after the
// switchover follows the timeline that won: every write acknowledged before the point, from
// both primaries, and none sent after it.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Redis } from 'ioredis';
import { startProvisioningPlatform, type ProvisioningPlatform } from '../provisioning/support/stack.js';
import { connected, endpointOf, type Credentials, type Instance } from './support/ha.js';

interface Write {
  key: string;
  sentAt: number;
  ackedAt: number;
}

let platform: ProvisioningPlatform;
let instance: Instance;
let user: Credentials;
const writes: Write[] = [];
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const path = () => ({ project: platform.projectId, instance: instance.id });

async function writeFor(client: Redis, prefix: string, ms: number): Promise<void> {
  const until = Date.now() + ms;
  for (let i = 0; Date.now() < until; i++) {
    const sentAt = Date.now();
    try {
      await client.set(`${prefix}:${i}`, `${prefix}-${i}`);
    } catch (error) {
      // Refused, not acknowledged: a sync primary whose replica is not streaming yet.
      if (!/NOREPLICAS/.test((error as Error).message)) throw error;
      await sleep(100);
      continue;
    }
    writes.push({ key: `${prefix}:${i}`, sentAt, ackedAt: Date.now() });
    await sleep(10);
  }
}

async function backups() {
  return (await platform.client.GET('/v1/projects/{project}/instances/{instance}/backups', { params: { path: path() } })).data!.items;
}

beforeAll(async () => {
  platform = await startProvisioningPlatform('ha_backup', { BASALT_BACKUP_SCHEDULE_INTERVAL_MS: '2000' }, { objectStore: true });
}, 120_000);
afterAll(async () => {
  await platform?.stop();
}, 300_000);

describe('point-in-time restore across a failover', () => {
  test('a standard instance backed up, switched over and written again', async () => {
    const { data, response } = await platform.client.POST('/v1/projects/{project}/instances', {
      params: { path: { project: platform.projectId } },
      body: { name: 'ha-backup', instance_type: 'kv.standard.small', region: 'local', architecture: 'standard', replicas: 1, parameters: { replication_mode: 'sync', fsync: 'always' } },
    });
    expect(response.status, JSON.stringify(data)).toBe(202);
    user = data!.default_user;
    instance = await platform.waitForStatus(data!.instance.id, ['running'], 300_000);
    // A sync primary takes writes once its replica streams (NOREPLICAS before): its lag is known then.
    await expect
      .poll(async () => (await platform.getInstance(instance.id)).nodes.find((n) => n.role === 'replica')?.lag_bytes, { timeout: 60_000, interval: 500 })
      .toBeTypeOf('number');
    const first = await connected(endpointOf(instance, 'primary'), user);
    try {
      await writeFor(first, 'one', 1_500);
    } finally {
      first.disconnect();
    }
    const backup = await platform.client.POST('/v1/projects/{project}/instances/{instance}/backups', { params: { path: path() } });
    expect((await platform.waitForOperation(backup.data!.operation.id, 120_000)).status).toBe('succeeded');

    const switched = await platform.client.POST('/v1/projects/{project}/instances/{instance}/failover', { params: { path: path() } });
    expect(switched.response.status).toBe(202);
    const operation = await platform.waitForOperation(switched.data!.operation!.id, 180_000);
    expect(operation.status, JSON.stringify(operation.error)).toBe('succeeded');
    instance = await platform.getInstance(instance.id);
    await expect
      .poll(async () => (await platform.getInstance(instance.id)).nodes.find((n) => n.role === 'replica')?.lag_bytes, { timeout: 60_000, interval: 500 })
      .toBeTypeOf('number');

    // The archive moved to the new primary's log: timeline 2, and a base on it at once.
    await expect
      .poll(async () => (await backups()).some((b) => b.timeline === 2 && b.status === 'succeeded'), { timeout: 60_000, interval: 1_000 })
      .toBe(true);
    const second = await connected(endpointOf(instance, 'primary'), user);
    try {
      await writeFor(second, 'two', 3_000);
    } finally {
      second.disconnect();
    }
    const lastAck = writes[writes.length - 1]!.ackedAt;
    await expect
      .poll(async () => Date.parse((await platform.client.GET('/v1/projects/{project}/instances/{instance}/restore-window', { params: { path: path() } })).data?.latest ?? '0'), { timeout: 20_000, interval: 500 })
      .toBeGreaterThanOrEqual(Math.floor(lastAck / 1000) * 1000);
  }, 420_000);

  test('the restore window says which timeline covers which span, and refuses the gap between them', async () => {
    const { data: window } = await platform.client.GET('/v1/projects/{project}/instances/{instance}/restore-window', { params: { path: path() } });
    console.log(`after the failover: timelines ${JSON.stringify(window!.timelines)}, gaps ${JSON.stringify(window!.gaps)}`);
    expect(window!.timelines.map((t) => t.timeline)).toEqual([1, 2]);
    const [one, two] = window!.timelines;
    expect(window!.earliest).toBe(one!.earliest);
    expect(window!.latest).toBe(two!.latest);
    // Timeline 1 ends before the failover's first write on timeline 2 was acknowledged; timeline 2 starts at its first base.
    const firstOnTwo = writes.find((w) => w.key.startsWith('two:'))!;
    expect(Date.parse(one!.latest)).toBeLessThan(firstOnTwo.ackedAt);
    const base = (await backups()).filter((b) => b.timeline === 2 && b.status === 'succeeded').map((b) => Date.parse(b.end_time!));
    expect(Date.parse(two!.earliest)).toBe(Math.ceil(Math.min(...base) / 1000) * 1000);
    // The seconds between them, if any, are the one gap, and a restore there is refused before anything is made.
    const gapSeconds = (Date.parse(two!.earliest) - Date.parse(one!.latest)) / 1000 - 1;
    if (gapSeconds <= 0) {
      expect(window!.gaps).toEqual([]);
      return;
    }
    expect(window!.gaps).toEqual([{ from: iso(Date.parse(one!.latest) + 1000), to: iso(Date.parse(two!.earliest) - 1000), ended_timeline: 1, next_timeline: 2 }]);
    const { error, response } = await platform.client.POST('/v1/projects/{project}/instances', {
      params: { path: { project: platform.projectId } },
      body: { name: 'in-the-gap', instance_type: 'kv.standard.small', region: 'local', restore_from: { source_instance_id: instance.id, point_in_time: window!.gaps[0]!.to } },
    });
    expect(response.status).toBe(409);
    expect(error).toMatchObject({ code: 'point_in_gap', message: expect.stringContaining(`choose a point up to ${one!.latest} or from ${two!.earliest}`) });
  });

  test('a point after the switchover follows the timeline that won', async () => {
    const after = writes.filter((w) => w.key.startsWith('two:'));
    const point = Math.ceil(after[Math.floor(after.length / 2)]!.sentAt / 1000) * 1000;
    const { data, response, error } = await platform.client.POST('/v1/projects/{project}/instances', {
      params: { path: { project: platform.projectId } },
      body: { name: 'after-failover', instance_type: 'kv.standard.small', region: 'local', restore_from: { source_instance_id: instance.id, point_in_time: new Date(point).toISOString().replace('.000Z', 'Z') } },
    });
    expect(response.status, JSON.stringify(error)).toBe(202);
    const restored = await platform.waitForStatus(data!.instance.id, ['running'], 240_000);
    const reader = await connected(endpointOf(restored, 'primary'), data!.default_user);
    try {
      const values = await reader.mget(...writes.map((w) => w.key));
      const held = new Map(writes.map((w, i) => [w.key, values[i]]));
      const missing = writes.filter((w) => w.ackedAt < point && held.get(w.key) == null);
      const extra = writes.filter((w) => w.sentAt > point && held.get(w.key) != null);
      console.log(`after the failover, point ${new Date(point).toISOString()}: ${writes.filter((w) => w.ackedAt < point).length} acknowledged before it (from both primaries), missing ${missing.length}, extra ${extra.length}`);
      expect(missing.map((w) => w.key)).toEqual([]);
      expect(extra.map((w) => w.key)).toEqual([]);
    } finally {
      reader.disconnect();
    }
  }, 300_000);
});
