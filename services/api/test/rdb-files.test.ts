// RDB uploads and exports through the API (issue 44): every refusal the API decides alone, and
// an upload stored sealed in a real (embedded) object store. No worker runs: an export asked
// for stays pending, and what needs one to have succeeded (the download, its expiry's 410, an
// instance from an upload) is checked end to end in e2e/provisioning/rdb-import-export.test.ts.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type RunningApi } from './support/api-process.js';
import { type Caller, createBody, loginAdmin, newUser, query } from './support/clients.js';

const MISSING = '00000000-0000-4000-8000-000000000000';
const MAX = 1 << 20;

interface EmbeddedStore {
  endpoint: string;
  bucket: string;
  region: string;
  stop(): Promise<void>;
}
const lib = pathToFileURL(path.resolve(import.meta.dirname, '../../../scripts/lib/objectstore.mjs')).href;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'basalt-rdb-api-'));
const credentials = { accessKey: `AK${crypto.randomBytes(8).toString('hex').toUpperCase()}`, secretKey: crypto.randomBytes(24).toString('base64url') };

let embedded: EmbeddedStore;
let api: RunningApi;
let bare: RunningApi;
let admin: Caller;
let viewer: Caller;
let project: string;

beforeAll(async () => {
  const { startObjectStore } = (await import(lib)) as { startObjectStore: (o: { dir: string; accessKey: string; secretKey: string }) => Promise<EmbeddedStore> };
  embedded = await startObjectStore({ dir: path.join(dir, 'store'), ...credentials });
  fs.writeFileSync(path.join(dir, 'access-key'), credentials.accessKey, { mode: 0o600 });
  fs.writeFileSync(path.join(dir, 'secret-key'), credentials.secretKey, { mode: 0o600 });
  [api, bare] = await Promise.all([
    startApi({
      BASALT_BACKUP_S3_BUCKET: embedded.bucket,
      BASALT_BACKUP_S3_ENDPOINT: embedded.endpoint,
      BASALT_BACKUP_S3_REGION: embedded.region,
      BASALT_BACKUP_S3_FORCE_PATH_STYLE: 'true',
      BASALT_BACKUP_S3_ACCESS_KEY_FILE: path.join(dir, 'access-key'),
      BASALT_BACKUP_S3_SECRET_KEY_FILE: path.join(dir, 'secret-key'),
      BASALT_RDB_IMPORT_MAX_BYTES: String(MAX),
    }),
    startApi(),
  ]);
  admin = await loginAdmin(api);
  project = admin.defaultProjectId;
  viewer = await newUser(api, admin);
  const added = await admin.client.POST('/v1/projects/{project}/members', { params: { path: { project } }, body: { email: viewer.email, role: 'viewer' } });
  expect(added.response.status).toBe(201);
}, 120_000);

afterAll(async () => {
  await Promise.all([api?.stop(), bare?.stop()]);
  await embedded?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
}, 60_000);

/** A raw POST of the upload route, as a client streaming a file does. */
function upload(caller: Caller, body: BodyInit | Readable, options: { inProject?: string; contentType?: string; on?: RunningApi } = {}) {
  const base = (options.on ?? api).baseUrl;
  const stream = body instanceof Readable;
  return fetch(`${base}/v1/projects/${options.inProject ?? project}/rdb-imports`, {
    method: 'POST',
    headers: { cookie: caller.cookie, 'content-type': options.contentType ?? 'application/octet-stream' },
    body: stream ? (Readable.toWeb(body) as ReadableStream) : body,
    ...(stream ? { duplex: 'half' } : {}),
  } as RequestInit);
}

const createFrom = (caller: Caller, restore_from: unknown, inProject = project) =>
  caller.client.POST('/v1/projects/{project}/instances', { params: { path: { project: inProject } }, body: createBody(`rdb-${crypto.randomBytes(3).toString('hex')}`, { restore_from }) as never });

describe('RDB uploads', () => {
  const file = Buffer.concat([Buffer.from('REDIS0010'), crypto.randomBytes(300_000)]);
  let uploadedId = '';

  it('stores the body sealed under imports/<project>/ and says its size and SHA-256', async () => {
    const res = await upload(admin, file);
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(201);
    expect(body).toMatchObject({ size_bytes: file.length, sha256: crypto.createHash('sha256').update(file).digest('hex') });
    expect(Date.parse(body.expires_at) - Date.parse(body.created_at)).toBe(24 * 3_600_000);
    uploadedId = body.id;
    const [row] = await query(api, 'SELECT object_key, data_key_encrypted FROM rdb_imports WHERE id = $1', [uploadedId]);
    expect(row.object_key).toBe(`imports/${project}/${uploadedId}.rdb`);
    const s3 = new S3Client({ endpoint: embedded.endpoint, region: embedded.region, forcePathStyle: true, credentials: { accessKeyId: credentials.accessKey, secretAccessKey: credentials.secretKey } });
    const stored = Buffer.from(await (await s3.send(new GetObjectCommand({ Bucket: embedded.bucket, Key: row.object_key }))).Body!.transformToByteArray());
    s3.destroy();
    // Sealed: the header, frames, and none of the plain bytes.
    expect(stored.subarray(0, 4).toString()).toBe('BSO1');
    expect(stored.includes(file.subarray(1000, 1064))).toBe(false);
  });

  it('refuses a body over BASALT_RDB_IMPORT_MAX_BYTES with 413, by its Content-Length or as it streams', async () => {
    // The limit is said before a byte is sent (what the console shows), to viewers too.
    const limits = await viewer.client.GET('/v1/projects/{project}/rdb-imports/limits', { params: { path: { project } } });
    expect(limits.data).toEqual({ max_bytes: MAX, expires_after_seconds: 86_400 });
    const declared = await upload(admin, Buffer.alloc(MAX + 1));
    expect(declared.status).toBe(413);
    expect((await declared.json()).code).toBe('payload_too_large');
    // Chunked, no Content-Length: counted as it arrives.
    const chunks = Array.from({ length: 20 }, () => Buffer.alloc(64 * 1024, 7));
    const streamed = await upload(admin, Readable.from(chunks));
    expect(streamed.status).toBe(413);
    expect(await query(api, 'SELECT id FROM rdb_imports WHERE size_bytes > $1', [MAX])).toEqual([]);
  });

  it('takes application/octet-stream only, from members, of projects they are in', async () => {
    expect((await upload(admin, file, { contentType: 'text/plain' })).status).toBe(415);
    expect((await upload(viewer, file)).status).toBe(403);
    expect((await upload(admin, file, { inProject: 'not-a-uuid' })).status).toBe(400);
    expect((await upload(admin, file, { inProject: MISSING })).status).toBe(404);
  });

  it('is 404 not_configured on a platform without an object store', async () => {
    const bareAdmin = await loginAdmin(bare);
    const res = await upload(bareAdmin, file, { on: bare, inProject: bareAdmin.defaultProjectId });
    expect(res.status).toBe(404);
    expect((await res.json()).code).toBe('not_configured');
    const limits = await bareAdmin.client.GET('/v1/projects/{project}/rdb-imports/limits', { params: { path: { project: bareAdmin.defaultProjectId } } });
    expect(limits.error).toMatchObject({ code: 'not_configured' });
  });

  it("a create from an upload: another project's is 404, with another source 400, an expired one 409", async () => {
    const other = await admin.client.POST('/v1/projects', { body: { name: `other-${crypto.randomBytes(3).toString('hex')}` } });
    expect(other.response.status).toBe(201);
    const elsewhere = await createFrom(admin, { rdb_import_id: uploadedId }, other.data!.id);
    expect(elsewhere.response.status).toBe(404);
    expect((await createFrom(admin, { rdb_import_id: MISSING })).response.status).toBe(404);
    expect((await createFrom(admin, { rdb_import_id: 'nope' })).response.status).toBe(400);
    expect((await createFrom(admin, { rdb_import_id: uploadedId, backup_id: MISSING })).response.status).toBe(400);
    // Its day has passed (the row the API wrote; the scheduler would remove it at its next round).
    const expired = await (await upload(admin, file)).json();
    await query(api, `UPDATE rdb_imports SET expires_at = now() - interval '1 second' WHERE id = $1`, [expired.id]);
    const late = await createFrom(admin, { rdb_import_id: expired.id });
    expect(late.response.status).toBe(409);
    expect((late.error as { code: string }).code).toBe('rdb_import_expired');
    expect(await query(api, `SELECT id FROM instances WHERE restored_from->>'rdb_import_id' = $1`, [expired.id])).toEqual([]);
  });
});

describe('RDB exports', () => {
  it('ids are UUIDs (400), a missing backup or export is 404, viewers may not ask for one', async () => {
    const ask = (caller: Caller, backup: string) => caller.client.POST('/v1/projects/{project}/backups/{backup}/exports', { params: { path: { project, backup } } });
    expect((await ask(admin, 'not-a-uuid')).response.status).toBe(400);
    expect((await ask(admin, MISSING)).response.status).toBe(404);
    expect((await ask(viewer, MISSING)).response.status).toBe(403);
    const get = (exp: string) => admin.client.GET('/v1/projects/{project}/exports/{export}', { params: { path: { project, export: exp } } });
    expect((await get('x')).response.status).toBe(400);
    expect((await get(MISSING)).response.status).toBe(404);
    const download = (exp: string) => admin.client.GET('/v1/projects/{project}/exports/{export}/download', { params: { path: { project, export: exp } }, parseAs: 'text' });
    expect((await download('x')).response.status).toBe(400);
    expect((await download(MISSING)).response.status).toBe(404);
  });
});
