// The object store module against the real embedded store (SeaweedFS, as `npm start` runs it:
// scripts/lib/objectstore.mjs) in a temp dir: what it writes it reads back verified, lists and
// deletes; the store refuses an object whose checksum does not match; a read of an object whose
// bytes are not what its checksum says fails; and the objects outlive a restart of the store.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { pathToFileURL } from 'node:url';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ObjectStore, ObjectStoreError, type ObjectStoreConfig } from './object-store.js';

interface EmbeddedStore {
  endpoint: string;
  bucket: string;
  region: string;
  stop(): Promise<void>;
}
type StartObjectStore = (opts: { dir: string; accessKey: string; secretKey: string }) => Promise<EmbeddedStore>;

const lib = pathToFileURL(path.resolve(import.meta.dirname, '../../../../scripts/lib/objectstore.mjs')).href;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'basalt-objectstore-'));
const credentials = { accessKey: `AK${crypto.randomBytes(8).toString('hex').toUpperCase()}`, secretKey: crypto.randomBytes(24).toString('base64url') };
let startObjectStore: StartObjectStore;
let embedded: EmbeddedStore;
let config: ObjectStoreConfig;
let store: ObjectStore;

beforeAll(async () => {
  ({ startObjectStore } = (await import(lib)) as { startObjectStore: StartObjectStore });
  embedded = await startObjectStore({ dir: path.join(dir, 'store'), ...credentials });
  // The worker is given its credentials as files, as the platform passes them.
  fs.writeFileSync(path.join(dir, 'access-key'), credentials.accessKey, { mode: 0o600 });
  fs.writeFileSync(path.join(dir, 'secret-key'), credentials.secretKey, { mode: 0o600 });
  config = {
    endpoint: embedded.endpoint,
    bucket: embedded.bucket,
    region: embedded.region,
    forcePathStyle: true,
    accessKeyFile: path.join(dir, 'access-key'),
    secretKeyFile: path.join(dir, 'secret-key'),
  };
  store = new ObjectStore(config);
});

afterAll(async () => {
  store?.close();
  await embedded?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

const sha256 = (bytes: Uint8Array) => crypto.createHash('sha256').update(bytes).digest('hex');

describe('ObjectStore on the embedded store', () => {
  const segment = crypto.randomBytes(3 << 20);

  it('puts with the SHA-256, and gets the same bytes back through a verified stream', async () => {
    expect(await store.put('inst-1/seg-000001', segment)).toEqual({ key: 'inst-1/seg-000001', size: segment.length, sha256: sha256(segment) });
    const file = path.join(dir, 'manifest.json');
    fs.writeFileSync(file, JSON.stringify({ segments: 1 }));
    await store.put('inst-1/manifest.json', { path: file });
    const got = await store.get('inst-1/seg-000001');
    expect(got.size).toBe(segment.length);
    expect(got.sha256).toBe(sha256(segment));
    expect((await buffer(got.body)).equals(segment)).toBe(true);
    expect((await buffer((await store.get('inst-1/manifest.json')).body)).toString()).toBe('{"segments":1}');
    expect(await store.head('inst-1/seg-000001')).toMatchObject({ size: segment.length, sha256: sha256(segment) });
    expect(await store.head('inst-1/none')).toBeUndefined();
  });

  it('lists by prefix across pages, and deletes many at once', async () => {
    const keys = Array.from({ length: 7 }, (_, i) => `inst-2/seg-${String(i).padStart(6, '0')}`);
    for (const key of keys) await store.put(key, Buffer.from(key));
    const listed = [];
    for await (const item of store.list('inst-2/', { pageSize: 3 })) listed.push(item);
    expect(listed.map((item) => item.key)).toEqual(keys);
    expect(listed.every((item) => item.size === 17)).toBe(true);
    await store.deleteMany([...keys.slice(0, 5), 'inst-2/never-written']);
    const left = [];
    for await (const item of store.list('inst-2/')) left.push(item.key);
    expect(left).toEqual(keys.slice(5));
  });

  it('the store serves only the identity it was given', async () => {
    fs.writeFileSync(path.join(dir, 'wrong-secret'), 'not-the-secret');
    const stranger = new ObjectStore({ ...config, secretKeyFile: path.join(dir, 'wrong-secret') });
    await expect(stranger.head('inst-1/seg-000001')).rejects.toThrow(/^head inst-1\/seg-000001: .*HTTP 403/);
    await expect(stranger.put('inst-1/intruder', Buffer.from('x'))).rejects.toThrow(/^put inst-1\/intruder: SignatureDoesNotMatch \(HTTP 403\)/);
    stranger.close();
  });

  it('the store refuses an object whose bytes do not have the checksum sent, naming the key', async () => {
    const wrong = sha256(Buffer.from('other bytes'));
    const refused = store.put('inst-3/seg-000001', segment, { sha256: wrong });
    await expect(refused).rejects.toBeInstanceOf(ObjectStoreError);
    await expect(refused).rejects.toThrow(/^put inst-3\/seg-000001: BadDigest \(HTTP 400\)/);
    expect(await store.head('inst-3/seg-000001')).toBeUndefined();
  });

  it('a read whose bytes do not have the SHA-256 the object carries fails at the end of the stream', async () => {
    // An object as a damaged store would serve it: bytes that are not the ones its SHA-256
    // names (written around the module, which could not write such an object).
    const raw = new S3Client({
      endpoint: config.endpoint,
      region: config.region,
      forcePathStyle: true,
      credentials: { accessKeyId: credentials.accessKey, secretAccessKey: credentials.secretKey },
    });
    await raw.send(new PutObjectCommand({ Bucket: config.bucket, Key: 'inst-4/seg-000001', Body: Buffer.from('damaged'), Metadata: { sha256: sha256(Buffer.from('original')) } }));
    raw.destroy();
    const got = await store.get('inst-4/seg-000001');
    await expect(buffer(got.body)).rejects.toThrow(/^get inst-4\/seg-000001: the bytes read have SHA-256 [0-9a-f]{64}, the object was stored with /);
  });

  it('keeps its objects across a restart of the store process', async () => {
    await embedded.stop();
    embedded = await startObjectStore({ dir: path.join(dir, 'store'), ...credentials });
    expect(embedded.endpoint).toBe(config.endpoint); // the same ports again
    expect((await buffer((await store.get('inst-1/seg-000001')).body)).equals(segment)).toBe(true);
    const listed = [];
    for await (const item of store.list('inst-')) listed.push(item.key);
    expect(listed).toEqual(['inst-1/manifest.json', 'inst-1/seg-000001', 'inst-2/seg-000005', 'inst-2/seg-000006', 'inst-4/seg-000001']);
  });
});
