// Real clients against basalt-server: redis-cli (Debian's redis-tools), redis-py (the venv at
// .tools/py) and ioredis each run a scripted session: strings, hashes, expiry, a pipeline, SCAN.
// The engine runs in managed mode, as the platform deploys every instance (issue 43): nothing
// here needs the platform's commands.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
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

describe('redis-cli', () => {
  const cli = async (...args: string[]) =>
    (await run('redis-cli', ['-h', '127.0.0.1', '-p', String(engine.port), ...args])).stdout.trim();

  it('runs strings, hashes, expiry and SCAN', async () => {
    expect(await cli('PING')).toBe('PONG');
    expect(await cli('SET', 'cli:greeting', 'hello world')).toBe('OK');
    expect(await cli('GET', 'cli:greeting')).toBe('hello world');
    expect(await cli('INCRBY', 'cli:counter', '-7')).toBe('-7');
    expect(await cli('HSET', 'cli:user', 'name', 'Ada', 'lang', 'en')).toBe('2');
    expect((await cli('HGETALL', 'cli:user')).split('\n').sort()).toEqual(['Ada', 'en', 'lang', 'name']);
    expect(await cli('SET', 'cli:session', 'x', 'EX', '100')).toBe('OK');
    const ttl = Number(await cli('TTL', 'cli:session'));
    expect(ttl).toBeGreaterThan(95);
    expect(ttl).toBeLessThanOrEqual(100);
    expect(await cli('PEXPIRE', 'cli:greeting', '50')).toBe('1');
    await new Promise((r) => setTimeout(r, 120));
    expect(await cli('EXISTS', 'cli:greeting')).toBe('0');
    // --scan walks the whole keyspace with SCAN cursors.
    const keys = (await cli('--scan', '--pattern', 'cli:*')).split('\n').sort();
    expect(keys).toEqual(['cli:counter', 'cli:session', 'cli:user']);
  });

  it('pipes a thousand commands in one pipeline (--pipe)', async () => {
    const lines = Array.from({ length: 1000 }, (_, i) => `SET cli:pipe:${i} v${i}`).join('\r\n') + '\r\n';
    const file = path.join(engine.dir, '..', `pipe-${process.pid}.txt`);
    fs.writeFileSync(file, lines);
    try {
      const { stdout } = await run('sh', ['-c', `redis-cli -h 127.0.0.1 -p ${engine.port} --pipe < ${file}`]);
      expect(stdout).toContain('errors: 0, replies: 1000');
    } finally {
      fs.rmSync(file, { force: true });
    }
    expect(await cli('GET', 'cli:pipe:999')).toBe('v999');
  });

  it('reports exact command counts in INFO commandstats', async () => {
    const before = await cli('INFO', 'commandstats');
    const calls = (text: string) => Number(/cmdstat_hget:calls=(\d+)/.exec(text)?.[1] ?? 0);
    for (let i = 0; i < 5; i++) await cli('HGET', 'cli:user', 'name');
    expect(calls(await cli('INFO', 'commandstats'))).toBe(calls(before) + 5);
  });
});

describe('redis-py', () => {
  it('runs the scripted session in RESP2 and RESP3', async () => {
    const python = path.join(process.env.BASALT_ROOT ?? ROOT, '.tools', 'py', 'bin', 'python');
    const script = `
import sys, time, redis
port = int(sys.argv[1])
for proto in (2, 3):
    r = redis.Redis(host="127.0.0.1", port=port, protocol=proto, decode_responses=True)
    p = f"py{proto}:"
    assert r.ping()
    assert r.set(p + "s", "value") is True
    assert r.get(p + "s") == "value"
    assert r.set(p + "s", "other", nx=True) is None
    assert r.incr(p + "n", 5) == 5 and r.decr(p + "n") == 4
    assert r.incrbyfloat(p + "f", 2.5) == 2.5
    assert r.hset(p + "h", mapping={"a": "1", "b": "2"}) == 2
    assert r.hgetall(p + "h") == {"a": "1", "b": "2"}
    assert r.hincrby(p + "h", "a", 41) == 42
    assert r.set(p + "e", "x", ex=100) and 95 < r.ttl(p + "e") <= 100
    assert r.pexpire(p + "e", 30) and (time.sleep(0.1) or r.get(p + "e") is None)
    pipe = r.pipeline(transaction=False)
    for i in range(200):
        pipe.set(f"{p}pipe:{i}", i)
    pipe.get(p + "pipe:199")
    results = pipe.execute()
    assert results[:200] == [True] * 200 and results[200] == "199", results[-3:]
    assert len(list(r.scan_iter(match=p + "pipe:*", count=50))) == 200
    assert r.zadd(p + "z", {"a": 1.5, "b": 2}) == 2
    assert r.zscore(p + "z", "a") == 1.5
    assert [tuple(x) for x in r.zrange(p + "z", 0, -1, withscores=True)] == [("a", 1.5), ("b", 2.0)], r.zrange(p + "z", 0, -1, withscores=True)
    assert r.rpush(p + "l", "x", "y") == 2 and r.lrange(p + "l", 0, -1) == ["x", "y"]
    assert r.sadd(p + "set", "m") == 1 and r.smembers(p + "set") == {"m"}
    try:
        r.lpush(p + "s", "x")
        raise SystemExit("WRONGTYPE expected")
    except redis.ResponseError as e:
        assert str(e).startswith("WRONGTYPE"), e
    r.close()
print("redis-py ok")
`;
    const { stdout } = await run(python, ['-c', script, String(engine.port)]);
    expect(stdout.trim()).toBe('redis-py ok');
  });
});

describe('ioredis', () => {
  it('runs the scripted session', async () => {
    const r = new Redis({ host: '127.0.0.1', port: engine.port, lazyConnect: true, maxRetriesPerRequest: 1 });
    await r.connect();
    try {
      expect(await r.ping()).toBe('PONG');
      expect(await r.set('io:s', 'value')).toBe('OK');
      expect(await r.get('io:s')).toBe('value');
      expect(await r.mset('io:a', '1', 'io:b', '2')).toBe('OK');
      expect(await r.mget('io:a', 'io:b', 'io:none')).toEqual(['1', '2', null]);
      expect(await r.hset('io:h', { name: 'Grace', year: '1906' })).toBe(2);
      expect(await r.hgetall('io:h')).toEqual({ name: 'Grace', year: '1906' });
      expect(await r.set('io:e', 'x', 'PX', 100_000)).toBe('OK');
      const pttl = await r.pttl('io:e');
      expect(pttl).toBeGreaterThan(95_000);
      expect(await r.persist('io:e')).toBe(1);
      expect(await r.ttl('io:e')).toBe(-1);
      const pipeline = r.pipeline();
      for (let i = 0; i < 300; i++) pipeline.set(`io:pipe:${i}`, String(i));
      pipeline.incrby('io:counter', -3);
      const results = await pipeline.exec();
      expect(results).toHaveLength(301);
      expect(results!.every(([err]) => err === null)).toBe(true);
      expect(results![300][1]).toBe(-3);
      const seen = new Set<string>();
      await new Promise<void>((resolve, reject) => {
        r.scanStream({ match: 'io:pipe:*', count: 64 })
          .on('data', (keys: string[]) => keys.forEach((k) => seen.add(k)))
          .on('end', () => resolve())
          .on('error', reject);
      });
      expect(seen.size).toBe(300);
      await expect(r.hget('io:s', 'x')).rejects.toThrow(/WRONGTYPE/);
    } finally {
      await r.quit();
    }
  });
});
