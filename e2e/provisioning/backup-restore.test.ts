// Backups and point-in-time restore through the API (issue 44), on nspawn VMs, with the stack's
// own object store and Prometheus: a writer under `fsync always` records when it sent each write
// and when it was acknowledged; two backups are taken while it writes; Prometheus has each
// instance's backup age and archive lag from the control plane; deleting the first backup
// removes its manifest while what the second needs stays; then, at once, a restore to a point in
// time T gives every write acknowledged before T and none sent after it (values byte for byte),
// and a restore from the second backup gives what was there at its point; a point outside the
// restorable window is refused; no VM reaches the store; deleting the instance takes a final
// backup that outlives it while a corrupted segment object makes a restore fail naming it, and
// no instance is marked running. Four VMs. (The lost node's count, the primary destroyed under
// writes, is e2e/bench/lost-node.run.ts: several kills, figures for the note.)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Redis } from 'ioredis';
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { Schemas } from '@basalt/api-client';
import { ROOT } from '../support/env.js';
import { startProvisioningPlatform, type ProvisioningPlatform } from './support/stack.js';
import { sshToVm, type Credentials } from './support/vm-host.js';

type Instance = Schemas['InstanceDto'];
interface Write {
  key: string;
  value: string;
  sentAt: number;
  ackedAt: number;
}

const promDir = fs.mkdtempSync(path.join(os.tmpdir(), 'basalt-prom-backup-'));
let prometheus: { env: Record<string, string>; sdDir: string; stop(): Promise<void> };
let platform: ProvisioningPlatform;
let source: Instance;
let owner: Credentials;
const writes: Write[] = [];
/** The first backup (deleted by a test) and the second (restored), each taken under writes. */
let firstBackupId = '';
let backupId = '';
let backupEnd = 0;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A client of the stack's own store, as the test looks into it (the worker alone writes there). */
function storeClient(): S3Client {
  const store = platform.objectStore!;
  return new S3Client({ endpoint: store.endpoint, region: store.region, forcePathStyle: true, credentials: { accessKeyId: store.accessKey, secretAccessKey: store.secretKey } });
}
const project = () => platform.projectId;

function connect(instance: Instance, credentials: Credentials): Redis {
  const { host, port } = instance.endpoints[0]!;
  return new Redis({ host, port, username: credentials.username, password: credentials.password, lazyConnect: true, maxRetriesPerRequest: 1 });
}

/** Sequential writes for `ms`, each with a value of its own (binary-safe), times recorded. */
async function writeFor(client: Redis, prefix: string, ms: number): Promise<void> {
  const until = Date.now() + ms;
  for (let i = 0; Date.now() < until; i++) {
    const key = `${prefix}:${i}`;
    const value = `${prefix}-${i}-\u0000\u00ff-${'x'.repeat(i % 50)}`;
    const sentAt = Date.now();
    await client.set(key, value);
    writes.push({ key, value, sentAt, ackedAt: Date.now() });
    await sleep(15);
  }
}

function createRestored(name: string, restoreFrom: { backup_id?: string; source_instance_id?: string; point_in_time?: string }) {
  return platform.client.POST('/v1/projects/{project}/instances', {
    params: { path: { project: project() } },
    body: { name, instance_type: 'kv.standard.small', region: 'local', restore_from: restoreFrom },
  });
}

/** Every write's key as the restored instance holds it: its value or null. */
async function contents(instance: Instance, credentials: Credentials): Promise<Map<string, string | null>> {
  const client = connect(instance, credentials);
  await client.connect();
  try {
    const values = await client.mget(...writes.map((w) => w.key));
    return new Map(writes.map((w, i) => [w.key, values[i] ?? null]));
  } finally {
    client.disconnect();
  }
}

beforeAll(async () => {
  const lib = await import(path.join(ROOT, 'scripts', 'lib', 'prometheus.mjs'));
  const { freePort } = await import(path.join(ROOT, 'scripts', 'lib', 'net.mjs'));
  prometheus = await lib.startPrometheus({ dir: promDir, port: await freePort(), scrapeInterval: '2s', retention: '1h', logDir: promDir });
  // The scheduler looks every 2 s, so a backup asked to go is gone within the test.
  platform = await startProvisioningPlatform('prov_backup', { BASALT_BACKUP_SCHEDULE_INTERVAL_MS: '2000', ...prometheus.env }, { objectStore: true });
}, 120_000);

afterAll(async () => {
  await platform?.stop();
  await prometheus?.stop();
  fs.rmSync(promDir, { recursive: true, force: true });
}, 300_000);

/** A manual backup asked for while `prefix` writes go on; its id once it has succeeded. */
async function backupUnderWrites(client: Redis, prefix: string): Promise<string> {
  const writing = writeFor(client, prefix, 2_000);
  const asked = await platform.client.POST('/v1/projects/{project}/instances/{instance}/backups', { params: { path: { project: project(), instance: source.id } } });
  expect(asked.response.status).toBe(202);
  await writing;
  const operation = await platform.waitForOperation(asked.data!.operation.id, 120_000);
  expect(operation.status, JSON.stringify(operation.error)).toBe('succeeded');
  return asked.data!.backup.id;
}

const getBackup = (id: string) => platform.client.GET('/v1/projects/{project}/backups/{backup}', { params: { path: { project: project(), backup: id } } });

describe('backups and point-in-time restore', () => {
  test('two backups taken under writes, then the archive keeps up', async () => {
    const { data, response } = await platform.client.POST('/v1/projects/{project}/instances', {
      params: { path: { project: project() } },
      body: { name: 'source', instance_type: 'kv.standard.small', region: 'local', parameters: { fsync: 'always' } },
    });
    expect(response.status).toBe(202);
    source = await platform.waitForStatus(data!.instance.id, ['running']);
    owner = data!.default_user;
    const client = connect(source, owner);
    await client.connect();
    try {
      await writeFor(client, 'before', 1_500);
      firstBackupId = await backupUnderWrites(client, 'during');
      backupId = await backupUnderWrites(client, 'during2');
      await writeFor(client, 'after', 3_000);
    } finally {
      client.disconnect();
    }
    const { data: backup } = await getBackup(backupId);
    expect(backup).toMatchObject({ status: 'succeeded', kind: 'manual', instance_id: source.id });
    expect(backup!.segments).toBeGreaterThan(0);
    backupEnd = Date.parse(backup!.end_time!);
    const { data: first } = await getBackup(firstBackupId);
    // The archive has the last writes within a few seal intervals.
    const lastAck = writes[writes.length - 1]!.ackedAt;
    const deadline = Date.now() + 20_000;
    for (;;) {
      const { data: window } = await platform.client.GET('/v1/projects/{project}/instances/{instance}/restore-window', { params: { path: { project: project(), instance: source.id } } });
      if (window?.latest && Date.parse(window.latest) >= Math.floor(lastAck / 1000) * 1000) {
        expect(Date.parse(window.earliest!)).toBeGreaterThanOrEqual(Math.floor(Date.parse(first!.end_time!) / 1000) * 1000);
        // One timeline, no failover: no gap.
        expect(window.timelines).toEqual([{ timeline: 1, earliest: window.earliest, latest: window.latest }]);
        expect(window.gaps).toEqual([]);
        console.log(`restore window ${window.earliest} .. ${window.latest}; archive lag ${window.archive_lag_seconds} s`);
        break;
      }
      if (Date.now() > deadline) throw new Error(`the archive did not reach ${new Date(lastAck).toISOString()}: ${JSON.stringify(window)}\n${platform.workerLog().slice(-2000)}`);
      await sleep(500);
    }
  }, 240_000);

  test('Prometheus has the backup age and archive lag from the control plane, behind the scrape token', async () => {
    const series = async () =>
      (await platform.client.GET('/v1/projects/{project}/instances/{instance}/metrics', { params: { path: { project: project(), instance: source.id }, query: { range: '15m', series: 'archive_lag,backup_age' } } })).data!
        .series;
    // Points come on the API's 10 s steps: the first within a step or two of the first scrape.
    await expect.poll(async () => (await series()).every((s) => s.points.length > 0), { timeout: 60_000, interval: 2_000 }).toBe(true);
    const [lag, age] = await series();
    const newest = (points: { v: number }[]) => points[points.length - 1]!.v;
    console.log(`metrics: archive lag ${newest(lag!.points)} s, last backup ${newest(age!.points)} s old`);
    expect(newest(lag!.points)).toBeLessThanOrEqual(5);
    expect(newest(age!.points)).toBeGreaterThanOrEqual(0);
    expect(newest(age!.points)).toBeLessThan(600);
    // The worker's target serves nothing without the token Prometheus scrapes with.
    const [group] = JSON.parse(fs.readFileSync(path.join(prometheus.sdDir, 'targets', 'control-plane.json'), 'utf8')) as { targets: string[] }[];
    const url = `http://${group!.targets[0]}/metrics`;
    expect((await fetch(url)).status).toBe(401);
    const token = fs.readFileSync(path.join(prometheus.sdDir, 'scrape-token'), 'utf8').trim();
    const text = await (await fetch(url, { headers: { authorization: `Bearer ${token}` } })).text();
    expect(text).toMatch(new RegExp(`^basalt_archive_lag_seconds\\{basalt_instance="${source.id}",basalt_project="${project()}"\\} \\d+$`, 'm'));
    expect(text).toContain('basalt_archive_lag_degraded_threshold_seconds 60');
    // The health rule is unchanged: an archive that keeps up leaves the instance healthy.
    await expect.poll(async () => (await platform.getInstance(source.id)).health, { timeout: 30_000, interval: 1_000 }).toBe('healthy');
  }, 120_000);

  test('deleting a backup removes its manifest, and what a kept backup needs stays', async () => {
    const s3 = storeClient();
    const keysOf = async () => ((await s3.send(new ListObjectsV2Command({ Bucket: platform.objectStore!.bucket, Prefix: `instances/${source.id}/` }))).Contents ?? []).map((o) => o.Key!);
    expect(await keysOf()).toContain(`instances/${source.id}/bases/${firstBackupId}.manifest`);
    const removed = await platform.client.DELETE('/v1/projects/{project}/backups/{backup}', { params: { path: { project: project(), backup: firstBackupId } } });
    expect(removed.response.status).toBe(202);
    const deadline = Date.now() + 30_000;
    while ((await getBackup(firstBackupId)).response.status !== 404) {
      if (Date.now() > deadline) throw new Error(`backup ${firstBackupId} was not removed\n${platform.workerLog().slice(-2000)}`);
      await sleep(500);
    }
    const left = await keysOf();
    expect(left).not.toContain(`instances/${source.id}/bases/${firstBackupId}.manifest`);
    expect(left).toContain(`instances/${source.id}/bases/${backupId}.manifest`);
    s3.destroy();
    // That the second base's log is all still there, the restores below show.
  }, 120_000);

  test('at once: a restore to a point in time has every write acknowledged before it and none sent after it, and one from the kept backup what was there at its point', async () => {
    // A whole second inside the writes after the second backup (the window now starts at it).
    const after = writes.filter((w) => w.key.startsWith('after:'));
    const point = Math.ceil(after[Math.floor(after.length / 2)]!.sentAt / 1000) * 1000;
    const [atPoint, fromBackup] = await Promise.all([
      createRestored('at-point', { source_instance_id: source.id, point_in_time: new Date(point).toISOString().replace('.000Z', 'Z') }),
      createRestored('from-backup', { backup_id: backupId }),
    ]);
    expect(atPoint.response.status, JSON.stringify(atPoint.error)).toBe(202);
    expect(fromBackup.response.status, JSON.stringify(fromBackup.error)).toBe(202);
    const [restoredAtPoint, restoredFromBackup] = await Promise.all([
      platform.waitForStatus(atPoint.data!.instance.id, ['running'], 240_000),
      platform.waitForStatus(fromBackup.data!.instance.id, ['running'], 240_000),
    ]);

    const held = await contents(restoredAtPoint, atPoint.data!.default_user);
    const acked = writes.filter((w) => w.ackedAt < point);
    const sentAfter = writes.filter((w) => w.sentAt > point);
    const missing = acked.filter((w) => held.get(w.key) !== w.value);
    const extra = sentAfter.filter((w) => held.get(w.key) !== null);
    console.log(`point ${new Date(point).toISOString()}: ${acked.length} writes acknowledged before it, ${sentAfter.length} sent after; missing ${missing.length}, extra ${extra.length}`);
    expect(missing.map((w) => w.key)).toEqual([]);
    expect(extra.map((w) => w.key)).toEqual([]);

    const base = await contents(restoredFromBackup, fromBackup.data!.default_user);
    expect(writes.filter((w) => w.key.startsWith('before:') || w.key.startsWith('during:')).every((w) => base.get(w.key) === w.value)).toBe(true);
    expect(writes.filter((w) => w.key.startsWith('after:')).every((w) => base.get(w.key) === null)).toBe(true);
    // What was written while the base was taken is there up to its end and not after it.
    const wrong = writes.filter((w) => (w.ackedAt < backupEnd ? base.get(w.key) !== w.value : w.sentAt > backupEnd && base.get(w.key) !== null));
    expect(wrong.map((w) => w.key)).toEqual([]);
  }, 300_000);

  test('no node reaches the store: it listens on the host’s loopback, and nodes hold no keys for it', () => {
    const port = new URL(platform.objectStore!.endpoint).port;
    const ip = source.nodes[0]!.private_ip;
    const probe = `gw=$(ip route show default | awk '{print $3}'); for h in 127.0.0.1 $gw; do timeout 2 bash -c "</dev/tcp/$h/${port}" 2>/dev/null && echo "$h open" || echo "$h closed"; done; grep -rl ${JSON.stringify(platform.objectStore!.accessKey)} /etc /var/lib/basalt 2>/dev/null | head -1`;
    const answer = sshToVm(platform.dataDir, ip, probe).trim().split('\n');
    expect(answer.filter((line) => line.endsWith(' open'))).toEqual([]);
    expect(answer.filter((line) => line.startsWith('/'))).toEqual([]);
  });
  test('a point outside the restorable window is refused, naming the window', async () => {
    const { data: window } = await platform.client.GET('/v1/projects/{project}/instances/{instance}/restore-window', { params: { path: { project: project(), instance: source.id } } });
    const before = new Date(Date.parse(window!.earliest!) - 60_000).toISOString().replace('.000Z', 'Z');
    const { error, response } = await createRestored('too-early', { source_instance_id: source.id, point_in_time: before });
    expect(response.status).toBe(409);
    expect(error).toMatchObject({ code: 'point_outside_window', message: expect.stringContaining(window!.earliest!) });
  });

  test('deleting the instance takes a final backup kept after it is gone, while a corrupted segment object fails a restore with its name and no instance runs', async () => {
    const store = platform.objectStore!;
    const s3 = storeClient();
    // The first object of the log the kept backup needs: a sealed segment, or the first piece of the active one.
    const listed = await s3.send(new ListObjectsV2Command({ Bucket: store.bucket, Prefix: `instances/${source.id}/t1/` }));
    const victim = (listed.Contents ?? []).map((o) => o.Key!).sort()[0];
    expect(victim).toMatch(/\.(seg|part-\d{16}-\d{16})$/);
    // Valid framing, a flipped byte inside: only the data key's check can find it.
    const original = Buffer.from(await (await s3.send(new GetObjectCommand({ Bucket: store.bucket, Key: victim! }))).Body!.transformToByteArray());
    original[original.length - 20]! ^= 0x01;
    await s3.send(new PutObjectCommand({ Bucket: store.bucket, Key: victim!, Body: original }));
    s3.destroy();
    // The final backup stores only what the archive has not: the damaged object is not read again.
    const [deleted, broken] = await Promise.all([
      platform.client.DELETE('/v1/projects/{project}/instances/{instance}', { params: { path: { project: project(), instance: source.id } } }),
      createRestored('from-broken', { backup_id: backupId }),
    ]);
    expect(deleted.response.status).toBe(202);
    expect(broken.response.status, JSON.stringify(broken.error)).toBe(202);
    const [failed] = await Promise.all([platform.waitForOperation(broken.data!.operation!.id, 240_000), platform.waitForStatus(source.id, ['deleted'], 240_000)]);
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatchObject({ step: 'restore_data', message: expect.stringContaining(victim!) });
    expect((await platform.getInstance(broken.data!.instance.id)).status).toBe('create_failed');
    const { data } = await platform.client.GET('/v1/projects/{project}/instances/{instance}/backups', { params: { path: { project: project(), instance: source.id } } });
    const final = data!.items.find((b) => b.kind === 'final');
    expect(final).toMatchObject({ status: 'succeeded', expires_at: expect.any(String) });
  }, 300_000);
})
