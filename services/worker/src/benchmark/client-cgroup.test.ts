// The benchmark client's cgroup (issue 43), on this host's real cgroup fs (v2, or v1 as here
// where PID 1 is not systemd): the client runs in the run's cgroup from its first instruction,
// with one core's worth of CPU (the quota read back: on a host this loaded, a busy client is
// rarely given a core to be throttled from) and the memory bound, enforced; the widest run
// the API accepts fits; a leftover of a killed worker (its client still in it) is removed by the
// next attempt; the group goes with the run. Where no cgroup can be made, the reason is said and
// the client runs under prlimit (bench-process.test.ts).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientCommand, runBench, type BenchRunOptions } from './bench-process.js';
import { CLIENT_CGROUP_CPUS, CLIENT_CGROUP_MEMORY_MB, clientCgroupName, createClientCgroup, removeClientCgroup } from './client-cgroup.js';
import { cgroupHost, HOST_CGROUP_ROOT, inCgroup } from './host-cgroup.js';

const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
const host = cgroupHost(repoRoot);
const v2 = fs.existsSync(path.join(HOST_CGROUP_ROOT, 'cgroup.controllers'));
/** Only root makes cgroups here; elsewhere the fallback test still runs. */
const canMakeCgroups = process.getuid?.() === 0 && (v2 || fs.existsSync(path.join(HOST_CGROUP_ROOT, 'memory')));

/** The run's cgroup directories: one on v2, the cpu and memory controllers' on v1. */
function dirsOf(name: string): { cpu: string; memory: string } {
  if (v2) return { cpu: path.join(HOST_CGROUP_ROOT, 'basalt', name), memory: path.join(HOST_CGROUP_ROOT, 'basalt', name) };
  return { cpu: path.join(HOST_CGROUP_ROOT, 'cpu', 'basalt', name), memory: path.join(HOST_CGROUP_ROOT, 'memory', 'basalt', name) };
}
const read = (file: string) => fs.readFileSync(file, 'utf8').trim();

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'basalt-client-cgroup-'));
const made: string[] = [];

afterAll(async () => {
  for (const id of made) await removeClientCgroup(host, id);
  fs.rmSync(work, { recursive: true, force: true });
});

/** A new run id, its cgroup made; removed after the file whatever happens. */
async function newRun(): Promise<{ id: string; name: string }> {
  const id = randomUUID();
  made.push(id);
  const cgroup = await createClientCgroup(host, id);
  expect(cgroup).toEqual({ name: clientCgroupName(id), cpus: CLIENT_CGROUP_CPUS, memoryMb: CLIENT_CGROUP_MEMORY_MB });
  return { id, name: clientCgroupName(id) };
}

/** Runs a stand-in client (`sh -c script`, which writes the report) in the run's cgroup. */
function runIn(name: string, binary: string, args: string[], jsonFile: string, timeoutMs = 30_000) {
  const options: BenchRunOptions = { binary, args, jsonFile, timeoutMs, cgroup: { host, name }, signal: new AbortController().signal, onProgress: () => {} };
  return runBench(options);
}

describe.runIf(canMakeCgroups)('the client cgroup on this host', () => {
  it('holds the client from its start, with one core and the memory bound, and goes with the run', async () => {
    const { id, name } = await newRun();
    const dirs = dirsOf(name);
    if (v2) {
      expect(read(path.join(dirs.memory, 'memory.max'))).toBe(String(CLIENT_CGROUP_MEMORY_MB * 1024 ** 2));
      expect(read(path.join(dirs.cpu, 'cpu.max'))).toBe('100000 100000');
    } else {
      expect(read(path.join(dirs.memory, 'memory.limit_in_bytes'))).toBe(String(CLIENT_CGROUP_MEMORY_MB * 1024 ** 2));
      expect(read(path.join(dirs.cpu, 'cpu.cfs_quota_us'))).toBe('100000');
      expect(read(path.join(dirs.cpu, 'cpu.cfs_period_us'))).toBe('100000');
    }
    // The client's own view, from its first instruction: its cgroups, and no prlimit in its way.
    const jsonFile = path.join(work, `${name}.json`);
    const outcome = await runIn(name, '/bin/sh', ['-c', `printf '{"cgroup": "%s", "as_kib": "%s"}' "$(tr '\\n' ' ' < /proc/self/cgroup)" "$(ulimit -v)" > '${jsonFile}'`], jsonFile);
    expect(outcome.kind).toBe('finished');
    const report = (outcome as unknown as { report: { cgroup: string; as_kib: string } }).report;
    if (v2) expect(report.cgroup).toContain(`0::/basalt/${name}`);
    else {
      expect(report.cgroup).toMatch(new RegExp(`:memory:/basalt/${name}( |$)`));
      expect(report.cgroup).toMatch(new RegExp(`:cpu:/basalt/${name}( |$)`));
    }
    expect(report.as_kib).toBe('unlimited');

    await removeClientCgroup(host, id);
    for (const dir of Object.values(dirs)) expect(fs.existsSync(dir), dir).toBe(false);
  });

  it('ends a client that allocates past the memory bound, and only it', async () => {
    const { name } = await newRun();
    const jsonFile = path.join(work, `${name}.json`);
    // Every page written, so it is charged to the group.
    const outcome = await runIn(name, 'python3', ['-c', `b = b'x' * (${CLIENT_CGROUP_MEMORY_MB + 256} << 20)`], jsonFile);
    expect(outcome).toMatchObject({ kind: 'failed', message: expect.stringContaining(`signal SIGKILL (its cgroup ${name} holds it to its memory bound)`) });
    const dirs = dirsOf(name);
    if (v2) expect(Number(/oom_kill (\d+)/.exec(read(path.join(dirs.memory, 'memory.events')))?.[1])).toBeGreaterThan(0);
    else expect(Number(read(path.join(dirs.memory, 'memory.failcnt')))).toBeGreaterThan(0);
    // The group takes the next scenario's client as before.
    const next = await runIn(name, '/bin/sh', ['-c', `echo '{"ok": true}' > '${jsonFile}'`], jsonFile);
    expect(next).toMatchObject({ kind: 'finished', report: { ok: true } });
  });

  describe('the widest client the API accepts', () => {
    let redis: ChildProcess;
    let port = 0;
    beforeAll(async () => {
      port = await new Promise<number>((resolve) => {
        const server = net.createServer().listen(0, '127.0.0.1', () => {
          const { port } = server.address() as net.AddressInfo;
          server.close(() => resolve(port));
        });
      });
      redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
      for (let i = 0; i < 100 && !(await answers(port)); i++) await new Promise((r) => setTimeout(r, 50));
    });
    afterAll(() => {
      redis?.kill('SIGKILL');
    });

    it('fits the bound: basalt-bench with a pipeline of 256 values of 1 MiB (the 256 MiB cap) finishes', async () => {
      const { name } = await newRun();
      const jsonFile = path.join(work, `${name}.json`);
      const bench = path.join(repoRoot, 'engine', 'target', 'release', 'basalt-bench');
      const flags = ['-s', '127.0.0.1', '-p', String(port), '--threads=1', '--clients=1', '--pipeline=256', '--data-size=1048576', '--ratio=1:1', '--key-maximum=50', '--test-time=2', `--json-out-file=${jsonFile}`];
      const outcome = await runIn(name, bench, flags, jsonFile, 60_000);
      expect(outcome.kind, JSON.stringify(outcome)).toBe('finished');
      expect((outcome as { exitCode: number }).exitCode).toBe(0);
    });
  });

  it("removes a killed worker's leftover, its client first, before the retry's cgroup", async () => {
    const { id, name } = await newRun();
    // The client a killed worker left: still in the run's cgroup.
    const left = inCgroup(host, name, { file: 'sleep', args: ['300'] });
    const orphan = spawn(left.file, left.args, { stdio: 'ignore' });
    const gone = new Promise((resolve) => orphan.once('exit', (_code, signal) => resolve(signal)));
    const procs = path.join(dirsOf(name).memory, 'cgroup.procs');
    for (let i = 0; i < 50 && !read(procs).split('\n').includes(String(orphan.pid)); i++) await new Promise((r) => setTimeout(r, 20));
    expect(read(procs).split('\n')).toContain(String(orphan.pid));

    expect((await createClientCgroup(host, id)).name).toBe(name);
    expect(await gone).toBe('SIGKILL');
    expect(read(procs)).toBe('');
  });
});

describe('without cgroups', () => {
  it('says why, and the client runs under prlimit', async () => {
    const nowhere = cgroupHost(repoRoot, '/proc/basalt-no-cgroup-here');
    const cgroup = await createClientCgroup(nowhere, randomUUID());
    expect(cgroup.name).toBeUndefined();
    expect((cgroup as { unavailable: string }).unavailable).toMatch(/\S/);
    expect(clientCommand('/bin/basalt-bench', ['--threads=1']).file).toBe('prlimit');
  });
});

function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}
