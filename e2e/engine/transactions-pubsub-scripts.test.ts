// What applications use beyond plain commands, through real client libraries against
// basalt-server: redis-py's pipeline(transaction=True) with WATCH, pubsub() and
// register_script(), and ioredis' multi(), subscribe/psubscribe and defineCommand, each with
// a database other than 0 selected as a deployment keeping apps apart would.
// The engine runs in managed mode, as the platform deploys every instance (issue 43): nothing
// here needs the platform's commands.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../support/env.js';
import { startEngine, type Engine } from './engine-process.js';

const run = promisify(execFile);
let engine: Engine;

beforeAll(async () => {
  engine = await startEngine(['--fsync', 'always'], undefined, { managed: true });
});

afterAll(async () => {
  await engine?.stop();
});

describe('redis-py', () => {
  it('runs transactions with WATCH, pub/sub and registered scripts', async () => {
    const python = path.join(process.env.BASALT_ROOT ?? ROOT, '.tools', 'py', 'bin', 'python');
    const script = `
import sys, time, threading, redis
port = int(sys.argv[1])
r = redis.Redis(host="127.0.0.1", port=port, db=3, decode_responses=True)
other = redis.Redis(host="127.0.0.1", port=port, db=3, decode_responses=True)

# pipeline(transaction=True): MULTI ... EXEC, all replies at once.
pipe = r.pipeline(transaction=True)
pipe.set("acct:a", 100).set("acct:b", 0).decrby("acct:a", 30).incrby("acct:b", 30).mget("acct:a", "acct:b")
assert pipe.execute() == [True, True, 70, 30, ["70", "30"]]

# The optimistic-locking pattern: WATCH, read, MULTI, write; retried when another client wrote.
def transfer(amount, interfere):
    with r.pipeline() as p:
        attempts = 0
        while True:
            attempts += 1
            try:
                p.watch("acct:a")
                balance = int(p.get("acct:a"))
                if interfere and attempts == 1:
                    other.incrby("acct:a", 1000)
                p.multi()
                p.set("acct:a", balance - amount)
                p.incrby("acct:b", amount)
                p.execute()
                return attempts
            except redis.WatchError:
                continue
assert transfer(10, interfere=False) == 1
assert transfer(10, interfere=True) == 2
assert r.mget("acct:a", "acct:b") == ["1050", "50"], r.mget("acct:a", "acct:b")
assert redis.Redis(host="127.0.0.1", port=port, db=0).get("acct:a") is None

# pubsub(): channel and pattern subscriptions, messages in order.
ps = r.pubsub()
ps.subscribe("news")
ps.psubscribe("sport.*")
# subscribe() only sends: wait until the server counts both, or a PUBLISH can reach it first.
deadline = time.time() + 5
while (other.pubsub_numsub("news") != [("news", 1)] or other.pubsub_numpat() != 1) and time.time() < deadline:
    time.sleep(0.01)
def until_message():
    deadline = time.time() + 5
    while time.time() < deadline:
        m = ps.get_message(ignore_subscribe_messages=True, timeout=0.5)
        if m:
            return m
    raise SystemExit("no message")
assert other.publish("news", "hello") == 1
assert other.publish("sport.tennis", "ace") == 1
m1, m2 = until_message(), until_message()
assert (m1["type"], m1["channel"], m1["data"]) == ("message", "news", "hello"), m1
assert (m2["type"], m2["pattern"], m2["channel"], m2["data"]) == ("pmessage", "sport.*", "sport.tennis", "ace"), m2
assert other.pubsub_numsub("news") == [("news", 1)]
ps.close()

# register_script(): EVALSHA, with EVAL after SCRIPT FLUSH (NOSCRIPT handled by the client).
limiter = r.register_script("""
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
if n > tonumber(ARGV[2]) then return 0 end
return 1
""")
assert [limiter(keys=["rate:ip"], args=[60000, 3]) for _ in range(5)] == [1, 1, 1, 0, 0]
r.script_flush()
assert limiter(keys=["rate:other"], args=[60000, 1]) == 1
assert 0 < r.pttl("rate:ip") <= 60000
print("redis-py ok")
`;
    const { stdout } = await run(python, ['-c', script, String(engine.port)]);
    expect(stdout.trim()).toBe('redis-py ok');
  });
});

describe('ioredis', () => {
  it('runs multi(), subscribe and defineCommand', async () => {
    const r = new Redis({ host: '127.0.0.1', port: engine.port, db: 5, lazyConnect: true, maxRetriesPerRequest: 1 });
    const sub = new Redis({ host: '127.0.0.1', port: engine.port, db: 5, lazyConnect: true, maxRetriesPerRequest: 1 });
    await r.connect();
    await sub.connect();
    try {
      // multi(): queued, then executed at once.
      const tx = await r.multi().set('io:tx', '1').incr('io:tx').lpush('io:q', 'a', 'b').exec();
      expect(tx).toEqual([[null, 'OK'], [null, 2], [null, 2]]);
      // An error while queueing aborts the whole transaction.
      await expect(r.multi().set('io:never', '1').call('nosuchcommand').exec()).rejects.toThrow(/EXECABORT/);
      expect(await r.exists('io:never')).toBe(0);

      // subscribe / psubscribe: messages arrive on the 'message' and 'pmessage' events.
      const got: string[] = [];
      const arrived = new Promise<void>((resolve) => {
        sub.on('message', (channel: string, message: string) => {
          got.push(`${channel}:${message}`);
          if (got.length === 2) resolve();
        });
        sub.on('pmessage', (pattern: string, channel: string, message: string) => {
          got.push(`${pattern}|${channel}:${message}`);
          if (got.length === 2) resolve();
        });
      });
      await sub.subscribe('jobs');
      await sub.psubscribe('evt.*');
      expect(await r.publish('jobs', 'j1')).toBe(1);
      expect(await r.publish('evt.created', 'e1')).toBe(1);
      await arrived;
      expect(got).toEqual(['jobs:j1', 'evt.*|evt.created:e1']);

      // defineCommand: EVALSHA with a fallback to EVAL, as job queues use it.
      r.defineCommand('takeJob', {
        numberOfKeys: 2,
        lua: "local job = redis.call('RPOP', KEYS[1]); if job then redis.call('HSET', KEYS[2], job, ARGV[1]) end; return job",
      });
      const take = (r as unknown as { takeJob: (...a: string[]) => Promise<string | null> }).takeJob.bind(r);
      expect(await take('io:q', 'io:active', 'worker-1')).toBe('a');
      expect(await take('io:q', 'io:active', 'worker-1')).toBe('b');
      expect(await take('io:q', 'io:active', 'worker-1')).toBeNull();
      expect(await r.hgetall('io:active')).toEqual({ a: 'worker-1', b: 'worker-1' });
    } finally {
      sub.disconnect();
      await r.quit();
    }
  });
});
