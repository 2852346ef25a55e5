// A lost node, over several kills (issue 44's figures for the note, not a test of `npm test`):
// each round creates an instance (fsync always, log archived, a base backup), writes to it as
// fast as one client goes, destroys its primary's VM and its disk under the writes, and
// restores the latest restorable point into a new instance; it counts the acknowledged writes
// missing there, and how long before the kill the oldest and the newest of them were
// acknowledged (goal: nothing older than the seal interval, 1 s, and a pass). The restored data
// must be a prefix of the writes: nothing invented, nothing out of order.
//   cd e2e && BASALT_LOST_NODE_KILLS=5 npx vitest run --config bench/vitest.config.ts
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { Redis } from 'ioredis';
import type { Schemas } from '@basalt/api-client';
import { startProvisioningPlatform, type ProvisioningPlatform } from '../provisioning/support/stack.js';
import { vmDir } from '../provisioning/support/vm-host.js';
import { killVm } from '../ha/support/ha.js';

type Instance = Schemas['InstanceDto'];
/** Rounds, each one kill; bounded so a run stays a few minutes per round. */
const KILLS = Math.min(Math.max(Number(process.env.BASALT_LOST_NODE_KILLS ?? 5) || 5, 1), 10);
const WRITE_MS = 4_000;

let platform: ProvisioningPlatform;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const project = () => platform.projectId;

beforeAll(async () => {
  platform = await startProvisioningPlatform('bench_lost', {}, { objectStore: true });
}, 120_000);
afterAll(async () => {
  await platform?.stop();
}, 300_000);

function connect(instance: Instance, credentials: { username: string; password: string }): Redis {
  const { host, port } = instance.endpoints[0]!;
  return new Redis({ host, port, username: credentials.username, password: credentials.password, lazyConnect: true, maxRetriesPerRequest: 1 });
}

async function create(name: string, extra: Record<string, unknown>) {
  const { data, response, error } = await platform.client.POST('/v1/projects/{project}/instances', {
    params: { path: { project: project() } },
    body: { name, instance_type: 'kv.standard.small', region: 'local', ...extra },
  });
  expect(response.status, JSON.stringify(error)).toBe(202);
  return { instance: await platform.waitForStatus(data!.instance.id, ['running'], 240_000), user: data!.default_user };
}

async function remove(id: string) {
  await platform.client.DELETE('/v1/projects/{project}/instances/{instance}', { params: { path: { project: project(), instance: id } } });
  await platform.waitForStatus(id, ['deleted'], 240_000).catch(() => {});
}

interface Round {
  acked: number;
  missing: number;
  oldestMissingMs: number;
  newestMissingMs: number;
  latest: string;
}

async function round(n: number): Promise<Round> {
  const doomed = await create(`doomed-${n}`, { parameters: { fsync: 'always' } });
  const base = await platform.client.POST('/v1/projects/{project}/instances/{instance}/backups', { params: { path: { project: project(), instance: doomed.instance.id } } });
  expect((await platform.waitForOperation(base.data!.operation.id, 120_000)).status).toBe('succeeded');
  const client = connect(doomed.instance, doomed.user);
  await client.connect();
  const acked: { key: string; value: string; ackedAt: number }[] = [];
  const writer = (async () => {
    for (let i = 0; ; i++) {
      try {
        await client.set(`lost:${i}`, `v${i}`);
      } catch {
        return;
      }
      acked.push({ key: `lost:${i}`, value: `v${i}`, ackedAt: Date.now() });
    }
  })();
  await sleep(WRITE_MS);
  // Power and disk gone: the VM killed, its data dir removed.
  const node = doomed.instance.nodes[0]!.name;
  killVm(platform.dataDir, node);
  const killedAt = Date.now();
  fs.rmSync(path.join(vmDir(platform.dataDir, node)), { recursive: true, force: true });
  client.disconnect();
  await writer;
  // What the archive had when the node went: its latest point stops moving.
  await sleep(1_500);
  const { data: window } = await platform.client.GET('/v1/projects/{project}/instances/{instance}/restore-window', { params: { path: { project: project(), instance: doomed.instance.id } } });
  const restored = await create(`after-loss-${n}`, { restore_from: { source_instance_id: doomed.instance.id, point_in_time: window!.latest! } });
  const reader = connect(restored.instance, restored.user);
  await reader.connect();
  const values = await reader.mget(...acked.map((w) => w.key));
  reader.disconnect();
  const missing = acked.filter((w, i) => values[i] !== w.value);
  const kept = acked.length - missing.length;
  // A prefix of the writes: everything before the first missing one is there, nothing after it.
  expect(values.slice(0, kept).every((v, i) => v === acked[i]!.value)).toBe(true);
  expect(values.slice(kept).every((v) => v === null)).toBe(true);
  await Promise.all([remove(restored.instance.id), remove(doomed.instance.id)]);
  return {
    acked: acked.length,
    missing: missing.length,
    oldestMissingMs: missing.length ? killedAt - missing[0]!.ackedAt : 0,
    newestMissingMs: missing.length ? killedAt - missing[missing.length - 1]!.ackedAt : 0,
    latest: window!.latest!,
  };
}

test(`a lost node, ${KILLS} kills`, async () => {
  const rounds: Round[] = [];
  for (let n = 1; n <= KILLS; n++) {
    const result = await round(n);
    rounds.push(result);
    console.log(
      `kill ${n}: ${result.acked} writes acknowledged, ${result.missing} missing after restoring to ${result.latest}; ` +
        `oldest missing acknowledged ${result.oldestMissingMs} ms before the kill, newest ${result.newestMissingMs} ms`,
    );
  }
  const worst = Math.max(...rounds.map((r) => r.oldestMissingMs));
  console.log(`lost node over ${KILLS} kills: missing ${rounds.map((r) => r.missing).join(', ')}; oldest missing at most ${worst} ms before its kill`);
});
