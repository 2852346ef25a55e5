// Issue 3 with real clients against the release basalt-server: users and ACLs through redis-cli
// and redis-py (read-only user gets NOPERM, wrong password WRONGPASS, two-password rotation),
// the IP allowlist, redis-cli --tls with a throwaway CA made by openssl, a pymemcache session on
// the memcached port (and its typed items after a kill -9), and /metrics parsed by
// prometheus-client's own text parser.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../support/env.js';
import { freePort } from '../support/ports.js';
import { startEngine, type Engine } from './engine-process.js';

const run = promisify(execFile);
// BASALT_TEST_PYTHON lets a developer point at another venv with the same requirements.
const python = process.env.BASALT_TEST_PYTHON ?? path.join(process.env.BASALT_ROOT ?? ROOT, '.tools', 'py', 'bin', 'python');
const PASSWORD = 'admin-s3cret';


/** Runs a Python script with the test venv; its stdout, trimmed. */
async function py(script: string, ...args: string[]): Promise<string> {
  const { stdout } = await run(python, ['-c', script, ...args], { timeout: 60_000 });
  return stdout.trim();
}

/** redis-cli with any arguments; stdout and stderr together (it prints errors to either). */
async function cli(...args: string[]): Promise<string> {
  try {
    const { stdout, stderr } = await run('redis-cli', ['-h', '127.0.0.1', '--no-auth-warning', ...args], { timeout: 30_000 });
    return (stdout + stderr).trim();
  } catch (e) {
    const err = e as { stdout?: string; stderr?: string };
    return ((err.stdout ?? '') + (err.stderr ?? '')).trim();
  }
}

function openssl(dir: string, args: string[]) {
  return run('openssl', args, { cwd: dir });
}

/** A throwaway CA and a server certificate for 127.0.0.1. */
async function makePki(dir: string) {
  await openssl(dir, ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.crt', '-days', '2', '-subj', '/CN=basalt e2e CA']);
  fs.writeFileSync(path.join(dir, 'san.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
  await openssl(dir, ['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=server']);
  await openssl(dir, ['x509', '-req', '-in', 'server.csr', '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'server.crt', '-days', '2', '-extfile', 'san.ext']);
}

let engine: Engine;
let pki: string;
const ports = { tls: 0, memcached: 0, admin: 0 };

beforeAll(async () => {
  pki = fs.mkdtempSync(path.join(os.tmpdir(), 'basalt-pki-'));
  await makePki(pki);
  ports.tls = await freePort();
  ports.memcached = await freePort();
  ports.admin = await freePort();
  engine = await startEngine([
    '--fsync', 'always',
    '--requirepass', PASSWORD,
    '--tls-port', String(ports.tls),
    '--tls-cert-file', path.join(pki, 'server.crt'),
    '--tls-key-file', path.join(pki, 'server.key'),
    '--memcached-port', String(ports.memcached),
    '--admin-port', String(ports.admin),
  ]);
  const admin = (...a: string[]) => cli('-p', String(engine.port), '-a', PASSWORD, ...a);
  expect(await admin('ACL', 'SETUSER', 'reader', 'on', '>reader-pw', '~*', '+@read', '+@connection')).toBe('OK');
  expect(await admin('SET', 'greeting', 'hello')).toBe('OK');
});

afterAll(async () => {
  await engine?.stop();
  if (pki) fs.rmSync(pki, { recursive: true, force: true });
});

describe('users and permissions', () => {
  it('redis-cli: no password is NOAUTH, a wrong one WRONGPASS, a read-only user gets NOPERM on SET', async () => {
    const p = String(engine.port);
    expect(await cli('-p', p, 'GET', 'greeting')).toContain('NOAUTH Authentication required.');
    expect(await cli('-p', p, '--user', 'reader', '--pass', 'wrong', 'PING')).toContain('WRONGPASS invalid username-password pair or user is disabled.');
    expect(await cli('-p', p, '--user', 'reader', '--pass', 'reader-pw', 'GET', 'greeting')).toBe('hello');
    expect(await cli('-p', p, '--user', 'reader', '--pass', 'reader-pw', 'SET', 'greeting', 'x')).toContain(
      "NOPERM User reader has no permissions to run the 'set' command",
    );
    expect(await cli('-p', p, '-a', PASSWORD, 'ACL', 'WHOAMI')).toBe('default');
  });

  it('redis-py (RESP2 and RESP3): NOPERM as NoPermissionError, WRONGPASS as AuthenticationError', async () => {
    const script = `
import sys, redis
port = int(sys.argv[1])
for proto in (2, 3):
    r = redis.Redis(port=port, username="reader", password="reader-pw", protocol=proto)
    print(proto, r.get("greeting").decode())
    try:
        r.set("greeting", "x")
        print(proto, "SET allowed")
    except redis.exceptions.NoPermissionError as e:
        print(proto, "NoPermissionError", e)
    try:
        redis.Redis(port=port, username="reader", password="nope", protocol=proto).ping()
    except redis.exceptions.AuthenticationError as e:
        print(proto, "AuthenticationError", e)
`;
    const out = (await py(script, String(engine.port))).split('\n');
    for (const proto of ['2', '3']) {
      expect(out).toContain(`${proto} hello`);
      expect(out).toContain(`${proto} NoPermissionError User reader has no permissions to run the 'set' command`);
      expect(out).toContain(`${proto} AuthenticationError invalid username-password pair or user is disabled.`);
    }
  });

  it('two-password rotation: clients on the old password keep working until it is removed', async () => {
    const script = `
import sys, redis
port = int(sys.argv[1])
admin = redis.Redis(port=port, password="${PASSWORD}")
admin.acl_setuser("svc", enabled=True, passwords=["+old-pw"], keys=["*"], commands=["+@all"])
old_pool = redis.Redis(port=port, username="svc", password="old-pw")
print("old", old_pool.set("svc:k", "1"))
admin.execute_command("ACL", "SETUSER", "svc", ">new-pw")
print("both", redis.Redis(port=port, username="svc", password="old-pw").incr("svc:k"), redis.Redis(port=port, username="svc", password="new-pw").incr("svc:k"))
print("old still", old_pool.incr("svc:k"))
admin.execute_command("ACL", "SETUSER", "svc", "<old-pw")
try:
    redis.Redis(port=port, username="svc", password="old-pw").ping()
    print("old accepted")
except redis.exceptions.AuthenticationError:
    print("old refused")
print("new", redis.Redis(port=port, username="svc", password="new-pw").get("svc:k").decode())
print("passwords", len(admin.acl_getuser("svc")["passwords"]))
`;
    expect((await py(script, String(engine.port))).split('\n')).toEqual([
      'old True',
      'both 2 3',
      'old still 4',
      'old refused',
      'new 4',
      'passwords 1',
    ]);
  });
});

describe('memtier-style load with an ACL user', () => {
  it('basalt-bench -a user:password runs inside the user\'s key pattern; a wrong password fails', async () => {
    const bench = process.env.BASALT_BENCH_BIN ?? path.join(ROOT, 'engine', 'target', 'release', 'basalt-bench');
    const p = String(engine.port);
    expect(await cli('-p', p, '-a', PASSWORD, 'ACL', 'SETUSER', 'loader', 'on', '>loader-pw', '~memtier-*', '+@all')).toBe('OK');
    const json = path.join(pki, 'bench.json');
    await run(bench, ['-s', '127.0.0.1', '-p', p, '-a', 'loader:loader-pw', '-t', '1', '-c', '2', '-n', '100', '--ratio', '1:1',
      '-d', '32', '--key-maximum', '1000', '--hide-histogram', '--json-out-file', json], { timeout: 60_000 });
    const result = JSON.parse(fs.readFileSync(json, 'utf8'));
    expect(result['ALL STATS'].Totals.Count).toBe(200);
    expect(result.errors['error replies']).toBe(0);
    const failed = await run(bench, ['-s', '127.0.0.1', '-p', p, '-a', 'loader:nope', '-t', '1', '-c', '1', '-n', '10'], { timeout: 60_000 })
      .then(() => 'exit 0', (e: { code?: number; stdout?: string; stderr?: string }) => `exit ${e.code} ${e.stdout ?? ''} ${e.stderr ?? ''}`);
    expect(failed).toContain('exit 1');
    expect(failed).toContain('WRONGPASS');
  });
});

describe('TLS', () => {
  it('redis-cli --tls connects with the CA, and without it the handshake fails', async () => {
    const p = String(ports.tls);
    expect(await cli('-p', p, '--tls', '--cacert', path.join(pki, 'ca.crt'), '-a', PASSWORD, 'GET', 'greeting')).toBe('hello');
    expect(await cli('-p', p, '--tls', '--cacert', path.join(pki, 'ca.crt'), '--user', 'reader', '--pass', 'reader-pw', 'SET', 'a', 'b')).toContain('NOPERM');
    expect(await cli('-p', p, '--tls', '-a', PASSWORD, 'PING')).not.toContain('PONG');
  });
});

describe('IP allowlist', () => {
  it('a client outside the allowlist is refused with an error line; inside it is served', async () => {
    const outside = await startEngine(['--allowlist', '10.0.0.0/8 192.168.0.0/16']);
    try {
      expect(await cli('-p', String(outside.port), 'PING')).toContain('client address 127.0.0.1 is not in the allowlist');
      const raw = await new Promise<string>((resolve) => {
        let got = '';
        const s = net.connect({ port: outside.port, host: '127.0.0.1' });
        s.on('data', (d) => { got += d; });
        s.on('close', () => resolve(got));
      });
      expect(raw).toBe('-ERR client address 127.0.0.1 is not in the allowlist\r\n');
      expect(outside.output()).toContain('"event":"connection_refused"');
    } finally {
      await outside.stop();
    }
    const inside = await startEngine(['--allowlist', '127.0.0.1/32']);
    try {
      expect(await cli('-p', String(inside.port), 'PING')).toBe('PONG');
    } finally {
      await inside.stop();
    }
  });
});

describe('memcached protocol', () => {
  it('pymemcache runs a scripted session over the same store as RESP', async () => {
    const script = `
import sys
from pymemcache.client.base import Client
from pymemcache import serde
port = int(sys.argv[1])
c = Client(("127.0.0.1", port), serde=serde.pickle_serde, default_noreply=False)
# memcached's ASCII auth: a set whose data is "user password".
print("auth", c.set("auth", "default ${PASSWORD}"))
print("set", c.set("mc:str", "text"), c.set("mc:int", 41), c.set("mc:obj", {"a": [1, 2]}))
print("get", c.get("mc:str"), c.get("mc:int"), c.get("mc:obj"), c.get("mc:none"))
print("many", sorted(c.get_many(["mc:str", "mc:int", "mc:none"]).items()))
print("add", c.add("mc:str", "again"), c.add("mc:new", "fresh"))
print("replace", c.replace("mc:new", "newer"), c.replace("mc:ghost", "x"))
raw = Client(("127.0.0.1", port), default_noreply=False)
raw.set("auth", "default ${PASSWORD}")
raw.set("mc:raw", b"mid")
print("append", raw.append("mc:raw", b"-end"), raw.prepend("mc:raw", b"start-"), raw.get("mc:raw"))
value, cas = raw.gets("mc:raw")
print("cas", raw.cas("mc:raw", b"swapped", cas), raw.cas("mc:raw", b"late", cas), raw.get("mc:raw"))
raw.set("mc:n", b"10")
print("incr", raw.incr("mc:n", 5), raw.decr("mc:n", 20), raw.incr("mc:missing", 1))
print("touch", raw.touch("mc:n", 100), raw.touch("mc:missing", 1))
print("delete", raw.delete("mc:n"), raw.delete("mc:n"))
print("version", raw.version().decode().startswith("1.6"))
stats = raw.stats()
print("stats", stats[b"cmd_get"] > 0, stats[b"curr_items"] > 0)
print("noreply", raw.set("mc:quiet", b"q", noreply=True), raw.get("mc:quiet"))
`;
    const out = (await py(script, String(ports.memcached))).split('\n');
    expect(out).toEqual([
      'auth True',
      'set True True True',
      "get text 41 {'a': [1, 2]} None",
      "many [('mc:int', 41), ('mc:str', 'text')]",
      'add False True',
      'replace True False',
      "append True True b'start-mid-end'",
      "cas True False b'swapped'",
      'incr 15 0 None',
      'touch True False',
      'delete True False',
      'version True',
      'stats True True',
      "noreply True b'q'",
    ]);
    // The same store: RESP reads what memcached wrote.
    expect(await cli('-p', String(engine.port), '-a', PASSWORD, 'GET', 'mc:raw')).toBe('swapped');
    expect(await cli('-p', String(engine.port), '-a', PASSWORD, 'TTL', 'mc:quiet')).toBe('-1');
  });

  it('pymemcache decodes str, int, pickle and compressed items after a kill -9 (flags are in the log)', async () => {
    // pymemcache's serde keeps the type (16 text, 2 int, 1 pickle) and compression (8) in the
    // flags: without them the values come back as raw bytes.
    const script = `
import sys
from pymemcache.client.base import Client
from pymemcache import serde
c = Client(("127.0.0.1", int(sys.argv[1])), serde=serde.CompressedSerde(min_compress_len=64), default_noreply=False)
if sys.argv[2] == "write":
    print("set", c.set("f:str", "text"), c.set("f:int", 41), c.set("f:obj", {"a": [1, 2]}), c.set("f:zip", "z" * 1000))
else:
    print("get", repr(c.get("f:str")), repr(c.get("f:int")), repr(c.get("f:obj")), c.get("f:zip") == "z" * 1000)
`;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'basalt-mc-flags-'));
    const started: Engine[] = [];
    const start = async () => {
      const port = await freePort();
      started.push(await startEngine(['--fsync', 'always', '--memcached-port', String(port)], dir));
      return { port, engine: started[started.length - 1] };
    };
    try {
      const first = await start();
      expect(await py(script, String(first.port), 'write')).toBe('set True True True True');
      await first.engine.kill9();
      const second = await start();
      expect(await py(script, String(second.port), 'read')).toBe("get 'text' 41 {'a': [1, 2]} True");
    } finally {
      for (const e of started) await e.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('admin port', () => {
  it('/metrics parses with prometheus-client and /healthz is ok', async () => {
    const health = await fetch(`http://127.0.0.1:${ports.admin}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.text()).toBe('ok\n');
    const script = `
import sys, urllib.request
from prometheus_client.parser import text_string_to_metric_families
text = urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/metrics").read().decode()
families = {f.name: f for f in text_string_to_metric_families(text)}
for name in ["basalt_commands", "basalt_command_duration_seconds", "basalt_connected_clients", "basalt_memory_used_bytes",
             "basalt_disk_log_bytes", "basalt_fsyncs", "basalt_fsync_duration_avg_seconds", "basalt_cache_hit_ratio",
             "basalt_memcache_command_duration_seconds"]:
    print(name, families[name].type)
sets = [s.value for s in families["basalt_commands"].samples if s.labels.get("command") == "set"]
print("set calls", sets[0] >= 1)
buckets = [s for s in families["basalt_command_duration_seconds"].samples if s.name.endswith("_bucket") and s.labels["command"] == "get"]
print("get buckets monotonic", all(a.value <= b.value for a, b in zip(buckets, buckets[1:])))
print("fsyncs", families["basalt_fsyncs"].samples[0].value > 0)
`;
    expect((await py(script, String(ports.admin))).split('\n')).toEqual([
      'basalt_commands counter',
      'basalt_command_duration_seconds histogram',
      'basalt_connected_clients gauge',
      'basalt_memory_used_bytes gauge',
      'basalt_disk_log_bytes gauge',
      'basalt_fsyncs counter',
      'basalt_fsync_duration_avg_seconds gauge',
      'basalt_cache_hit_ratio gauge',
      'basalt_memcache_command_duration_seconds histogram',
      'set calls True',
      'get buckets monotonic True',
      'fsyncs True',
    ]);
  });
});
