// RDB in and out through the API (issue 44), with the stack's own object store: a real Redis 7
// (Debian's redis-server, a temp dir, a leased loopback port) filled with every type (strings
// binary too, hashes, lists, sets, sorted sets, streams) and TTLs is saved; its dump.rdb is
// uploaded (streamed) and an instance created from it has the same contents; that instance is
// backed up, the backup exported, the RDB downloaded and loaded into a second redis-server,
// which again has the same contents; a damaged upload fails the create with basalt-rdb's
// reason, and no instance is running from it.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Redis } from 'ioredis';
import type { Schemas } from '@basalt/api-client';
import { startProvisioningPlatform, type ProvisioningPlatform } from './support/stack.js';
import { freePort } from '../support/ports.js';

type Instance = Schemas['InstanceDto'];
/** One key as compared: its type, its value in a canonical form, when it expires (unix ms; -1: never). */
interface Held {
  type: string;
  value: string;
  expiresAtMs: number;
}

const REDIS_SERVER = '/usr/bin/redis-server';
/** Strings beside the typed keys: the measured figures are for this many keys. */
const BULK_KEYS = 20_000;
const TTL_SLACK_MS = 5_000;

let platform: ProvisioningPlatform;
let dir: string;
const servers: ChildProcess[] = [];
let original: Map<string, Held>;
let dump: Buffer;
let restored: { instance: Instance; user: { username: string; password: string } };

const project = () => platform.projectId;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A redis-server of the test's own on a leased port, its data in `dataDir`. */
async function startRedis(dataDir: string, dbfilename = 'dump.rdb'): Promise<Redis> {
  const port = await freePort();
  const child = spawn(REDIS_SERVER, ['--port', String(port), '--bind', '127.0.0.1', '--dir', dataDir, '--dbfilename', dbfilename, '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  servers.push(child);
  for (let i = 0; ; i++) {
    const client = new Redis({ host: '127.0.0.1', port, lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => null });
    // Refused until the server listens: the attempt's rejection says so; no stray error event.
    client.on('error', () => {});
    try {
      await client.connect();
      // Loading a dump: wait until it is served.
      while ((await client.info('persistence')).includes('loading:1')) await sleep(50);
      return client;
    } catch (error) {
      client.disconnect();
      if (i > 100) throw error;
      await sleep(100);
    }
  }
}

async function fill(client: Redis): Promise<void> {
  const binary = Buffer.from([0, 1, 2, 0xff, 0xfe, 0x0d, 0x0a, 0x80]);
  await client.set('s:plain', 'hello');
  await client.set(Buffer.from('s:binary-\u0000-key'), binary);
  await client.set('s:int', '12345');
  await client.set('s:ttl', 'goes', 'EX', 3600);
  await client.hset('h:small', { a: '1', b: 'two' });
  await client.hset('h:big', Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`f${i}`, `v${i}`.repeat(5)])));
  await client.rpush('l:small', 'x', 'y', 'z');
  await client.rpush('l:big', ...Array.from({ length: 1000 }, (_, i) => `item-${i}`));
  await client.sadd('set:ints', 1, 2, 3, 99);
  await client.sadd('set:strs', ...Array.from({ length: 200 }, (_, i) => `m${i}`));
  await client.zadd('z:small', 1, 'one', 2.5, 'two-and-a-half', -3, 'neg');
  await client.zadd('z:big', ...Array.from({ length: 300 }, (_, i) => [i * 1.5, `z${i}`]).flat());
  await client.pexpire('z:small', 7_200_000);
  for (let i = 0; i < 50; i++) await client.xadd('x:stream', `${1700000000000 + i}-0`, 'n', String(i), 'payload', `p${i}`);
  await client.xgroup('CREATE', 'x:stream', 'readers', '0');
  await client.xreadgroup('GROUP', 'readers', 'alice', 'COUNT', 5, 'STREAMS', 'x:stream', '>');
  const pipe = client.pipeline();
  for (let i = 0; i < BULK_KEYS; i++) pipe.set(`bulk:${i}`, `value-${i}-${'v'.repeat(i % 64)}`);
  await pipe.exec();
}

/** Every key of db 0 with its value and TTL (SCAN, then one read per type). */
async function contents(client: Redis): Promise<Map<string, Held>> {
  const keys: Buffer[] = [];
  let cursor = '0';
  do {
    const [next, batch] = await client.scanBuffer(cursor, 'COUNT', 1000);
    cursor = String(next);
    keys.push(...batch);
  } while (cursor !== '0');
  const held = new Map<string, Held>();
  for (const key of keys) {
    const type = await client.type(key);
    let value: string;
    if (type === 'string') value = (await client.getBuffer(key))!.toString('hex');
    else if (type === 'hash') value = JSON.stringify(Object.entries(await client.hgetall(key)).sort());
    else if (type === 'list') value = JSON.stringify(await client.lrange(key, 0, -1));
    else if (type === 'set') value = JSON.stringify((await client.smembers(key)).sort());
    else if (type === 'zset') value = JSON.stringify(await client.zrange(key, 0, -1, 'WITHSCORES'));
    else if (type === 'stream') value = JSON.stringify(await client.xrange(key, '-', '+'));
    else value = `unexpected type ${type}`;
    const ttl = await client.pttl(key);
    held.set(key.toString('hex'), { type, value, expiresAtMs: ttl < 0 ? ttl : Date.now() + ttl });
  }
  return held;
}

/** The same keys, types and values; expiry times within a few seconds (an RDB keeps them absolute). */
function expectSame(got: Map<string, Held>, want: Map<string, Held>): void {
  expect(got.size).toBe(want.size);
  const wrong: string[] = [];
  for (const [key, held] of want) {
    const other = got.get(key);
    const name = Buffer.from(key, 'hex').toString('utf8');
    if (!other) wrong.push(`${name}: missing`);
    else if (other.type !== held.type || other.value !== held.value) wrong.push(`${name}: ${other.type} ${other.value.slice(0, 80)} != ${held.type} ${held.value.slice(0, 80)}`);
    else if (held.expiresAtMs < 0 ? other.expiresAtMs !== held.expiresAtMs : Math.abs(other.expiresAtMs - held.expiresAtMs) > TTL_SLACK_MS) wrong.push(`${name}: expires ${other.expiresAtMs} != ${held.expiresAtMs}`);
  }
  expect(wrong.slice(0, 20)).toEqual([]);
}

function upload(body: Buffer) {
  return platform.client.POST('/v1/projects/{project}/rdb-imports', {
    params: { path: { project: project() } },
    body: body as unknown as string,
    bodySerializer: (b: unknown) => b as Buffer,
    headers: { 'content-type': 'application/octet-stream' },
  });
}

function createFrom(name: string, rdbImportId: string) {
  return platform.client.POST('/v1/projects/{project}/instances', {
    params: { path: { project: project() } },
    body: { name, instance_type: 'kv.standard.small', region: 'local', restore_from: { rdb_import_id: rdbImportId } },
  });
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'basalt-rdb-e2e-'));
  const [stack] = await Promise.all([
    startProvisioningPlatform('prov_rdb', {}, { objectStore: true }),
    (async () => {
      const source = path.join(dir, 'source');
      fs.mkdirSync(source);
      const client = await startRedis(source);
      await fill(client);
      await client.save();
      original = await contents(client);
      client.disconnect();
      dump = fs.readFileSync(path.join(source, 'dump.rdb'));
    })(),
  ]);
  platform = stack;
}, 180_000);

afterAll(async () => {
  for (const server of servers) server.kill('SIGKILL');
  await platform?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
}, 300_000);

describe('RDB in and out', () => {
  test("a Redis dump.rdb uploaded makes an instance with Redis' contents", async () => {
    const started = Date.now();
    const { data: uploaded, response } = await upload(dump);
    expect(response.status, JSON.stringify(uploaded)).toBe(201);
    expect(uploaded!.size_bytes).toBe(dump.length);
    const uploadMs = Date.now() - started;
    const { data, response: created } = await createFrom('from-redis', uploaded!.id);
    expect(created.status, JSON.stringify(data)).toBe(202);
    const instance = await platform.waitForStatus(data!.instance.id, ['running'], 240_000);
    const createMs = Date.now() - started - uploadMs;
    expect(instance.restored_from).toEqual({ rdb_import_id: uploaded!.id });
    restored = { instance, user: data!.default_user };
    const { host, port } = instance.endpoints[0]!;
    const client = new Redis({ host, port, username: restored.user.username, password: restored.user.password, lazyConnect: true, maxRetriesPerRequest: 1 });
    await client.connect();
    try {
      expectSame(await contents(client), original);
    } finally {
      client.disconnect();
    }
    console.log(`import: ${original.size} keys, RDB of ${dump.length} bytes: upload ${(uploadMs / 1000).toFixed(1)} s, create to running ${(createMs / 1000).toFixed(1)} s`);
  }, 300_000);

  test('its backup exported and downloaded loads into Redis with the same contents', async () => {
    const asked = await platform.client.POST('/v1/projects/{project}/instances/{instance}/backups', { params: { path: { project: project(), instance: restored.instance.id } } });
    expect(asked.response.status).toBe(202);
    const backed = await platform.waitForOperation(asked.data!.operation.id, 120_000);
    expect(backed.status, JSON.stringify(backed.error)).toBe('succeeded');
    const started = Date.now();
    const exported = await platform.client.POST('/v1/projects/{project}/backups/{backup}/exports', { params: { path: { project: project(), backup: asked.data!.backup.id } } });
    expect(exported.response.status, JSON.stringify(exported.data)).toBe(202);
    const operation = await platform.waitForOperation(exported.data!.operation.id, 120_000);
    expect(operation.status, JSON.stringify(operation.error)).toBe('succeeded');
    const exportMs = Date.now() - started;
    const exportId = exported.data!.export.id;
    const { data: row } = await platform.client.GET('/v1/projects/{project}/exports/{export}', { params: { path: { project: project(), export: exportId } } });
    expect(row).toMatchObject({ status: 'succeeded', backup_id: asked.data!.backup.id, instance_id: restored.instance.id });
    expect(Date.parse(row!.expires_at) - Date.parse(row!.created_at)).toBe(24 * 3_600_000);

    const download = await platform.client.GET('/v1/projects/{project}/exports/{export}/download', { params: { path: { project: project(), export: exportId } }, parseAs: 'arrayBuffer' });
    const res = download.response;
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/octet-stream');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="from-redis-${asked.data!.backup.id}.rdb"`);
    const file = Buffer.from(download.data as unknown as ArrayBuffer);
    expect(file.length).toBe(row!.size_bytes);
    const out = path.join(dir, 'exported');
    fs.mkdirSync(out);
    fs.writeFileSync(path.join(out, 'basalt.rdb'), file);
    const client = await startRedis(out, 'basalt.rdb');
    try {
      expectSame(await contents(client), original);
    } finally {
      client.disconnect();
    }
    console.log(`export: ${original.size} keys, RDB of ${file.length} bytes, asked to succeeded ${(exportMs / 1000).toFixed(1)} s`);
  }, 300_000);

  test("a damaged upload fails the create with basalt-rdb's reason; nothing runs from it", async () => {
    const damaged = Buffer.from(dump);
    damaged[Math.floor(damaged.length / 2)]! ^= 0xff;
    const { data: uploaded } = await upload(damaged);
    const { data, response } = await createFrom('from-damaged', uploaded!.id);
    expect(response.status).toBe(202);
    const operation = await platform.waitForOperation(data!.operation!.id, 240_000);
    expect(operation.status).toBe('failed');
    expect(operation.error?.message).toMatch(/basalt-rdb check: RDB (corrupt|truncated|checksum).*offset/i);
    const instance = await platform.getInstance(data!.instance.id);
    expect(instance.status).toBe('create_failed');
    console.log(`damaged upload: ${operation.error?.message}`);
  }, 300_000);
});

