// The data browser through the typed client against a running instance made by the real worker
// (a process VM): a wrong password is a 403 saying so; every key, field, value and command
// argument arrives byte for byte (payloads that would act if spliced or evaluated); every call is
// bounded (SCAN pages, value pages, bytes shown, the time); a read-only user is read-only by its
// rules and by the engine; turned off, every route answers 409; audit rows name the kind of
// change and never hold a value or a password. redis-cli, on the host, is the oracle.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DATA_PAGE_MAX,
  DATA_PASSWORD_HEADER,
  DATA_SCAN_COUNT_MAX,
  DATA_USER_HEADER,
  DATA_VALUE_BYTES_SHOWN,
} from '@basalt/api-client/rules';
import { startApi, type RunningApi } from './support/api-process.js';
import { type Caller, createBody, loginAdmin, newUser, query } from './support/clients.js';
import { startWorker, type RealWorker } from './support/worker-process.js';

const run = promisify(execFile);
const PASSWORD = 'data-browser-Pw-1234';
const READER_PASSWORD = 'reader-Pw-1234567';
/** Payloads that would do something if they were ever spliced into a command, a shell or a template. */
const PAYLOADS = ['a key with spaces', 'quote"s and \'single\'', '$(touch /tmp/basalt-data-browser-pwned)', 'new\nline', 'crlf\r\n*1\r\n$8\r\nFLUSHALL\r\n', '{{ 7*7 }}', '`id`;'];

let api: RunningApi;
let worker: RealWorker;
let admin: Caller;
let ids: { project: string; instance: string };
let endpoint: { host: string; port: number };

const as = (username: string, password: string) => ({ [DATA_USER_HEADER]: username, [DATA_PASSWORD_HEADER]: password });
const owner = () => ({ path: ids, header: as('default', PASSWORD) });

/** redis-cli on the host as `default` (the password through REDISCLI_AUTH, never the command line). */
async function cli(...args: string[]): Promise<string> {
  const { stdout } = await run('redis-cli', ['-h', endpoint.host, '-p', String(endpoint.port), '--user', 'default', '--no-auth-warning', ...args], {
    env: { ...process.env, REDISCLI_AUTH: PASSWORD },
  });
  return stdout.replace(/\n$/, '');
}

beforeAll(async () => {
  api = await startApi();
  admin = await loginAdmin(api);
  const project = admin.defaultProjectId;
  const created = (await admin.client.POST('/v1/projects/{project}/instances', { params: { path: { project } }, body: createBody('browse-1', { password: PASSWORD }) })).data!;
  worker = await startWorker(api, admin);
  await worker.waitRunning(created.operation!.id);
  ids = { project, instance: created.instance.id };
  const user = await admin.client.POST('/v1/projects/{project}/instances/{instance}/users', { params: { path: ids }, body: { username: 'reader', password: READER_PASSWORD, permission: 'read_only' } });
  expect(user.response.status).toBe(201);
  if (user.data!.operation) await worker.waitForOperation(user.data!.operation.id);
  const instance = (await admin.client.GET('/v1/projects/{project}/instances/{instance}', { params: { path: ids } })).data!;
  endpoint = instance.endpoints.find((e) => e.role === 'primary')!;
}, 240_000);

afterAll(async () => {
  await worker?.stop();
  await api?.stop();
}, 240_000);

describe('logging in', () => {
  it('answers the user and its permission, and refuses a wrong password, an unknown user and missing headers with 4xx', async () => {
    const ok = await admin.client.GET('/v1/projects/{project}/instances/{instance}/data/access', { params: owner() });
    expect(ok.response.status).toBe(200);
    expect(ok.data).toMatchObject({ username: 'default', permission: 'admin', read_only: false });

    const wrong = await admin.client.GET('/v1/projects/{project}/instances/{instance}/data/access', { params: { path: ids, header: as('default', 'not-the-password-1') } });
    expect(wrong.response.status).toBe(403);
    expect(wrong.error).toMatchObject({ code: 'database_auth_failed', message: expect.stringContaining('refused the password of database user default'), request_id: expect.any(String) });
    expect(JSON.stringify(wrong.error)).not.toContain('not-the-password-1');

    const nobody = await admin.client.GET('/v1/projects/{project}/instances/{instance}/data/access', { params: { path: ids, header: as('basalt:control-plane', 'x') } });
    expect(nobody.response.status).toBe(400);
    const ghost = await admin.client.GET('/v1/projects/{project}/instances/{instance}/data/access', { params: { path: ids, header: as('ghost', PASSWORD) } });
    expect(ghost.response.status).toBe(403);
    const bare = await fetch(`${api.baseUrl}/v1/projects/${ids.project}/instances/${ids.instance}/data/access`, { headers: { cookie: admin.cookie } });
    expect(bare.status).toBe(400);
    expect(await bare.json()).toMatchObject({ code: 'invalid_request' });

    // Another project's member sees no such instance, whatever password they hold.
    const other = await newUser(api, admin);
    const hidden = await other.client.GET('/v1/projects/{project}/instances/{instance}/data/access', { params: owner() });
    expect(hidden.response.status).toBe(404);
  });
});

describe('every string is data', () => {
  it('writes keys, fields and values that would act if spliced, and redis-cli reads them byte for byte', async () => {
    for (const [i, payload] of PAYLOADS.entries()) {
      const edit = await admin.client.POST('/v1/projects/{project}/instances/{instance}/data/edits', { params: owner(), body: { op: 'hset', key: `h:${payload}`, field: payload, value: `v${i}:${payload}` } });
      expect(edit.response.status).toBe(204);
      expect(await cli('--no-raw', 'HGET', `h:${payload}`, payload)).toBe(JSON.stringify(`v${i}:${payload}`));
      const read = await admin.client.GET('/v1/projects/{project}/instances/{instance}/data/value', { params: { ...owner(), query: { key: `h:${payload}` } } });
      expect(read.data).toMatchObject({ type: 'hash', length: 1, fields: [{ field: { text: payload, binary: false }, value: { text: `v${i}:${payload}` } }] });
      // A pattern is data too: MATCH with the payload's own glob-free prefix finds it.
      const found = await admin.client.GET('/v1/projects/{project}/instances/{instance}/data/keys', { params: { ...owner(), query: { match: `h:${payload.replace(/[*?[\]\\]/g, '\\$&')}`, count: 500 } } });
      expect(found.data!.items.map((k) => k.key.text)).toContain(`h:${payload}`);
    }
    expect(await cli('DBSIZE')).toBe(String(PAYLOADS.length));
    await expect(run('test', ['-e', '/tmp/basalt-data-browser-pwned'])).rejects.toThrow();
  });

  it('splits a command line as redis-cli does and sends each argument whole', async () => {
    const line = String.raw`SET "cmd key $(id)" "line1\nline2\r\n\"quoted\" \x41" `;
    const set = await admin.client.POST('/v1/projects/{project}/instances/{instance}/data/command', { params: owner(), body: { command: line } });
    expect(set.data).toEqual({ output: 'OK', error: false });
    expect(await cli('--no-raw', 'GET', 'cmd key $(id)')).toBe(String.raw`"line1\nline2\r\n\"quoted\" A"`);
    const get = await admin.client.POST('/v1/projects/{project}/instances/{instance}/data/command', { params: owner(), body: { command: `GET 'cmd key $(id)'` } });
    expect(get.data!.output).toBe(String.raw`"line1\nline2\r\n\"quoted\" A"`);
    const multi = await admin.client.POST('/v1/projects/{project}/instances/{instance}/data/command', { params: owner(), body: { command: 'HGETALL "h:a key with spaces"' } });
    expect(multi.data!.output).toBe('1) "a key with spaces"\n2) "v0:a key with spaces"');
    const error = await admin.client.POST('/v1/projects/{project}/instances/{instance}/data/command', { params: owner(), body: { command: 'INCR "h:a key with spaces"' } });
    expect(error.data).toEqual({ output: expect.stringMatching(/^\(error\) WRONGTYPE/), error: true });

    for (const [command, code] of [['SET "unbalanced', 'invalid_request'], ['AUTH default x', 'command_not_supported'], ['MULTI', 'command_not_supported'], ['   ', 'invalid_request']] as const) {
      const refused = await admin.client.POST('/v1/projects/{project}/instances/{instance}/data/command', { params: owner(), body: { command } });
      expect(refused.response.status, command).toBe(400);
      expect(refused.error).toMatchObject({ code });
    }
  });
});

describe('bounds', () => {
  it('pages 1,200 keys by SCAN cursor without any page holding them all', async () => {
    await cli('EVAL', "for i = 1, 1200 do redis.call('SET', 'bulk:' .. i, i) end", '0');
    const seen = new Set<string>();
    let cursor = '0';
    let pages = 0;
    do {
      const page = await admin.client.GET('/v1/projects/{project}/instances/{instance}/data/keys', { params: { ...owner(), query: { cursor, match: 'bulk:*', type: 'string', count: 100 } } });
      expect(page.response.status).toBe(200);
      // A filtered page's SCAN calls each look at DATA_SCAN_COUNT_MAX keys: at most that many over the count.
      expect(page.data!.items.length).toBeLessThan(100 + DATA_SCAN_COUNT_MAX);
      for (const item of page.data!.items) {
        expect(item).toMatchObject({ type: 'string', ttl_ms: null });
        seen.add(item.key.text);
      }
      cursor = page.data!.cursor;
      pages++;
    } while (cursor !== '0');
    expect(seen.size).toBe(1200);
    expect(pages).toBeGreaterThanOrEqual(2);
    const over = await admin.client.GET('/v1/projects/{project}/instances/{instance}/data/keys', { params: { ...owner(), query: { count: DATA_SCAN_COUNT_MAX + 1 } } });
    expect(over.response.status).toBe(400);
    const badCursor = await admin.client.GET('/v1/projects/{project}/instances/{instance}/data/keys', { params: { ...owner(), query: { cursor: '0 MATCH *' } } });
    expect(badCursor.response.status).toBe(400);
  });

  it('shows the first 64 KiB of a large string with its true length, and pages a long list', async () => {
    await cli('EVAL', "redis.call('SET', 'big', string.rep('x', 300000)); for i = 1, 450 do redis.call('RPUSH', 'long', i) end", '0');
    const big = await admin.client.GET('/v1/projects/{project}/instances/{instance}/data/value', { params: { ...owner(), query: { key: 'big' } } });
    expect(big.data).toMatchObject({ type: 'string', length: 300_000, memory_bytes: expect.any(Number), string: { length: 300_000, truncated: true } });
    expect(big.data!.string!.text).toHaveLength(DATA_VALUE_BYTES_SHOWN);
    const line = await admin.client.POST('/v1/projects/{project}/instances/{instance}/data/command', { params: owner(), body: { command: 'GET big' } });
    expect(line.data!.output).toMatch(/^"x{65536}" \.\.\. \(300000 bytes in all, 65536 shown\)$/);

    const first = await admin.client.GET('/v1/projects/{project}/instances/{instance}/data/value', { params: { ...owner(), query: { key: 'long', count: DATA_PAGE_MAX } } });
    expect(first.data).toMatchObject({ type: 'list', length: 450, next_cursor: '200' });
    expect(first.data!.elements).toHaveLength(DATA_PAGE_MAX);
    const last = await admin.client.GET('/v1/projects/{project}/instances/{instance}/data/value', { params: { ...owner(), query: { key: 'long', count: DATA_PAGE_MAX, cursor: '400' } } });
    expect(last.data!.elements!.map((e) => e.index)).toEqual(Array.from({ length: 50 }, (_, i) => 400 + i));
    expect(last.data!.next_cursor).toBeNull();
    const tooMany = await admin.client.GET('/v1/projects/{project}/instances/{instance}/data/value', { params: { ...owner(), query: { key: 'long', count: DATA_PAGE_MAX + 1 } } });
    expect(tooMany.response.status).toBe(400);
    const all = await admin.client.POST('/v1/projects/{project}/instances/{instance}/data/command', { params: owner(), body: { command: 'LRANGE long 0 -1' } });
    expect(all.data!.output.split('\n')).toHaveLength(450);
  });

  it('gives up on a command that does not answer in time (504), never hanging', async () => {
    const started = Date.now();
    const blocked = await admin.client.POST('/v1/projects/{project}/instances/{instance}/data/command', { params: owner(), body: { command: 'BLPOP nothing-here 0' } });
    expect(blocked.response.status).toBe(504);
    expect(blocked.error).toMatchObject({ code: 'engine_timeout' });
    expect(Date.now() - started).toBeLessThan(8_000);
  });
});

describe('edits, TTL and delete', () => {
  it('changes a sorted-set score, sets and removes a TTL, deletes, and says 404 for what is not there', async () => {
    await cli('ZADD', 'board', '1', 'ada', '2', 'bob');
    expect((await admin.client.POST('/v1/projects/{project}/instances/{instance}/data/edits', { params: owner(), body: { op: 'zadd', key: 'board', member: 'ada', score: 42.5 } })).response.status).toBe(204);
    expect(await cli('ZSCORE', 'board', 'ada')).toBe('42.5');
    const page = await admin.client.GET('/v1/projects/{project}/instances/{instance}/data/value', { params: { ...owner(), query: { key: 'board' } } });
    expect(page.data!.elements).toEqual([{ value: expect.objectContaining({ text: 'bob' }), score: '2' }, { value: expect.objectContaining({ text: 'ada' }), score: '42.5' }]);

    expect((await admin.client.PUT('/v1/projects/{project}/instances/{instance}/data/ttl', { params: owner(), body: { key: 'board', ttl_seconds: 600 } })).response.status).toBe(204);
    expect(Number(await cli('TTL', 'board'))).toBeGreaterThan(590);
    expect((await admin.client.PUT('/v1/projects/{project}/instances/{instance}/data/ttl', { params: owner(), body: { key: 'board', ttl_seconds: null } })).response.status).toBe(204);
    expect(await cli('TTL', 'board')).toBe('-1');
    expect((await admin.client.PUT('/v1/projects/{project}/instances/{instance}/data/ttl', { params: owner(), body: { key: 'missing', ttl_seconds: 5 } })).response.status).toBe(404);

    const badEdit = await admin.client.POST('/v1/projects/{project}/instances/{instance}/data/edits', { params: owner(), body: { op: 'zadd', key: 'board', member: 'x' } });
    expect(badEdit.response.status).toBe(400);
    const wrongType = await admin.client.POST('/v1/projects/{project}/instances/{instance}/data/edits', { params: owner(), body: { op: 'hset', key: 'board', field: 'f', value: 'v' } });
    expect(wrongType.response.status).toBe(409);
    expect(wrongType.error).toMatchObject({ code: 'wrong_type' });

    expect((await admin.client.DELETE('/v1/projects/{project}/instances/{instance}/data/value', { params: { ...owner(), query: { key: 'board' } } })).response.status).toBe(204);
    expect(await cli('EXISTS', 'board')).toBe('0');
    expect((await admin.client.DELETE('/v1/projects/{project}/instances/{instance}/data/value', { params: { ...owner(), query: { key: 'board' } } })).response.status).toBe(404);
    expect((await admin.client.GET('/v1/projects/{project}/instances/{instance}/data/value', { params: { ...owner(), query: { key: 'board' } } })).response.status).toBe(404);
  });

  it('audits each change by its kind, never the value or the password', async () => {
    const secret = 'value-that-must-not-be-logged';
    await admin.client.POST('/v1/projects/{project}/instances/{instance}/data/edits', { params: owner(), body: { op: 'set', key: 'audited', value: secret } });
    await admin.client.POST('/v1/projects/{project}/instances/{instance}/data/command', { params: owner(), body: { command: `SET audited2 ${secret}` } });
    await admin.client.POST('/v1/projects/{project}/instances/{instance}/data/command', { params: owner(), body: { command: secret } });
    const rows = await query<{ action: string; path: string }>(api, `SELECT action, path FROM audit_log WHERE path LIKE '%/data/%' ORDER BY id`);
    const actions = rows.map((r) => r.action);
    expect(actions).toContain('POST /v1/projects/:project/instances/:instance/data/edits (set)');
    expect(actions).toContain('POST /v1/projects/:project/instances/:instance/data/command (SET)');
    expect(actions).toContain('POST /v1/projects/:project/instances/:instance/data/command (unknown command)');
    expect(actions).toContain('PUT /v1/projects/:project/instances/:instance/data/ttl (expire)');
    const everything = JSON.stringify(await query(api, 'SELECT * FROM audit_log'));
    for (const hidden of [secret, PASSWORD, 'board', 'bulk:']) expect(everything).not.toContain(hidden);
  });
});

describe('a read-only user', () => {
  it('is told read-only by its rules, reads, and the engine refuses its every write', async () => {
    const reader = { path: ids, header: as('reader', READER_PASSWORD) };
    const access = await admin.client.GET('/v1/projects/{project}/instances/{instance}/data/access', { params: reader });
    expect(access.data).toMatchObject({ username: 'reader', permission: 'read_only', read_only: true });
    const read = await admin.client.GET('/v1/projects/{project}/instances/{instance}/data/value', { params: { ...reader, query: { key: 'big' } } });
    expect(read.response.status).toBe(200);
    const edit = await admin.client.POST('/v1/projects/{project}/instances/{instance}/data/edits', { params: reader, body: { op: 'set', key: 'big', value: 'overwritten' } });
    expect(edit.response.status).toBe(403);
    expect(edit.error).toMatchObject({ code: 'database_permission_denied', message: expect.stringContaining('NOPERM') });
    const line = await admin.client.POST('/v1/projects/{project}/instances/{instance}/data/command', { params: reader, body: { command: 'DEL big' } });
    expect(line.data).toMatchObject({ output: expect.stringMatching(/^\(error\) NOPERM/), error: true });
    expect(await cli('STRLEN', 'big')).toBe('300000');
  });
});

describe('turned off', () => {
  it('answers 409 data_browser_disabled on every route until turned on again', async () => {
    const off = await admin.client.PATCH('/v1/projects/{project}/instances/{instance}', { params: { path: ids }, body: { data_browser_enabled: false } });
    expect(off.data!.instance.data_browser_enabled).toBe(false);
    const calls = [
      admin.client.GET('/v1/projects/{project}/instances/{instance}/data/access', { params: owner() }),
      admin.client.GET('/v1/projects/{project}/instances/{instance}/data/keys', { params: owner() }),
      admin.client.POST('/v1/projects/{project}/instances/{instance}/data/command', { params: owner(), body: { command: 'PING' } }),
    ];
    for (const call of await Promise.all(calls)) {
      expect(call.response.status).toBe(409);
      expect(call.error).toMatchObject({ code: 'data_browser_disabled' });
    }
    await admin.client.PATCH('/v1/projects/{project}/instances/{instance}', { params: { path: ids }, body: { data_browser_enabled: true } });
    const on = await admin.client.GET('/v1/projects/{project}/instances/{instance}/data/access', { params: owner() });
    expect(on.response.status).toBe(200);
  });
});
