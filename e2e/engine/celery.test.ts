// A Celery worker processing jobs through basalt-server as its broker and result backend: the
// way Python applications use Redis as a queue (lists with BRPOP, MULTI pipelines, pub/sub for
// results, SETEX, the broker and the results in separate logical databases). Jobs enqueued
// before a crash (kill -9 under `fsync always`) are processed after the restart: a queue's
// acknowledged pushes survive.
// The engine runs in managed mode, as the platform deploys every instance (issue 43): nothing
// here needs the platform's commands.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../support/env.js';
import { startEngine, type Engine } from './engine-process.js';

const run = promisify(execFile);
const venv = path.join(process.env.BASALT_ROOT ?? ROOT, '.tools', 'py', 'bin');
const python = path.join(venv, 'python');

// The application: one task module, broker in database 1, results in database 2.
const TASKS = `
import os
from celery import Celery
url = "redis://127.0.0.1:%s" % os.environ["ENGINE_PORT"]
app = Celery("tasks", broker=url + "/1", backend=url + "/2")
app.conf.broker_connection_retry_on_startup = True
app.conf.result_expires = 600

@app.task
def add(x, y):
    return x + y

@app.task
def total(values):
    return sum(values)

@app.task(bind=True, max_retries=3)
def flaky(self, key):
    # Fails on its first try, then succeeds: Celery's retry re-enqueues it with a countdown.
    if self.request.retries == 0:
        raise self.retry(countdown=0.2)
    return "ok:" + key
`;

// The producer: plain calls, a chord (group + callback through the result backend), a retry.
const PRODUCE_AND_WAIT = `
from celery import chord
from tasks import add, total, flaky
results = [add.delay(i, i) for i in range(50)]
assert [r.get(timeout=60) for r in results] == [2 * i for i in range(50)]
assert chord(add.s(i, 1) for i in range(10))(total.s()).get(timeout=60) == sum(range(1, 11))
assert flaky.delay("x").get(timeout=60) == "ok:x"
print("done")
`;

const ENQUEUE_ONLY = `
import json
from tasks import add
print(json.dumps([add.delay(i, 1000).id for i in range(30)]))
`;

const COLLECT = `
import json, sys
from celery.result import AsyncResult
from tasks import app
ids = json.loads(sys.argv[1])
print(json.dumps([AsyncResult(i, app=app).get(timeout=60) for i in ids]))
`;

let dir: string;
let engine: Engine;
let worker: ChildProcess | undefined;
let workerOutput = '';

function env(port: number): NodeJS.ProcessEnv {
  return { ...process.env, ENGINE_PORT: String(port), PYTHONPATH: dir, PYTHONDONTWRITEBYTECODE: '1' };
}

function startWorker(port: number): void {
  workerOutput = '';
  worker = spawn(path.join(venv, 'celery'), ['-A', 'tasks', 'worker', '--pool', 'threads', '--concurrency', '4', '--loglevel', 'WARNING', '--without-gossip', '--without-mingle', '--without-heartbeat'], {
    cwd: dir,
    env: env(port),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  worker.stdout?.on('data', (d) => { workerOutput += d; });
  worker.stderr?.on('data', (d) => { workerOutput += d; });
}

async function stopWorker(): Promise<void> {
  if (!worker || worker.exitCode !== null) return;
  const exited = new Promise((r) => worker!.once('exit', r));
  worker.kill('SIGTERM');
  const timer = setTimeout(() => worker?.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

async function python3(script: string, port: number, ...args: string[]): Promise<string> {
  const { stdout } = await run(python, ['-c', script, ...args], { cwd: dir, env: env(port), timeout: 120_000 });
  return stdout.trim();
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'basalt-celery-'));
  fs.writeFileSync(path.join(dir, 'tasks.py'), TASKS);
  engine = await startEngine(['--fsync', 'always'], undefined, { managed: true });
});

afterAll(async () => {
  await stopWorker();
  // After the restart the engine runs on a data dir it was given, which stop() keeps.
  const data = engine?.dir;
  await engine?.stop();
  for (const d of [dir, data]) if (d) fs.rmSync(d, { recursive: true, force: true });
});

describe('Celery with basalt-server as broker and result backend', () => {
  it('processes tasks, a chord and a retried task', async () => {
    startWorker(engine.port);
    try {
      expect(await python3(PRODUCE_AND_WAIT, engine.port)).toBe('done');
    } catch (err) {
      throw new Error(`${String(err)}\nworker output:\n${workerOutput}`);
    } finally {
      await stopWorker();
    }
    expect(workerOutput).not.toMatch(/unknown command|ERR /);
  }, 180_000);

  it('processes after a kill -9 the tasks enqueued before it', async () => {
    // No worker runs: the tasks wait in the broker's list when the engine is killed.
    const ids = JSON.parse(await python3(ENQUEUE_ONLY, engine.port)) as string[];
    expect(ids).toHaveLength(30);
    await engine.kill9();
    engine = await startEngine(['--fsync', 'always'], engine.dir, { managed: true });
    const cli = async (...args: string[]) => (await run('redis-cli', ['-p', String(engine.port), ...args])).stdout.trim();
    expect(await cli('-n', '1', 'llen', 'celery')).toBe('30');
    startWorker(engine.port);
    const stored = () => cli('-n', '2', 'exists', ...ids.map((id) => `celery-task-meta-${id}`));
    try {
      // The results are collected once all are stored. Collected while the worker still runs,
      // Celery's consumer sends SUBSCRIBE and then, on another connection, GETs the state;
      // a multi-threaded server starved of CPU may run the GET first, and a task finishing
      // in between publishes to no one (the consumer then waits out its timeout).
      // engine/server/tests/cross_connection_order.rs measures that ordering on its own.
      const deadline = Date.now() + 60_000;
      while ((await stored()) !== '30' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
      expect(await stored(), 'results stored within 60 s').toBe('30');
      const values = JSON.parse(await python3(COLLECT, engine.port, JSON.stringify(ids))) as number[];
      expect(values).toEqual(Array.from({ length: 30 }, (_, i) => i + 1000));
    } catch (err) {
      // What the broker holds tells a lost push from a task the worker did not take.
      const broker = await cli('-n', '1', 'eval',
        "return {redis.call('llen','celery'), redis.call('hlen','unacked'), redis.call('zcard','unacked_index')}", '0')
        .then((r) => r.replace(/\n/g, ' '), (e) => String(e));
      const results = await stored().catch((e) => String(e));
      throw new Error(`${String(err)}\nbroker list, unacked, unacked_index: ${broker}; results stored: ${results}\nworker output:\n${workerOutput}\nengine output:\n${engine.output()}`);
    } finally {
      await stopWorker();
    }
  }, 180_000);
});
