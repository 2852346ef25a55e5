// Issue 13's encryption-overhead suite through the API and the real worker (nothing here writes
// a benchmark row): a local instance, then the suite, which measures memtier's mixed 1:1 against
// engines of the instances' build that the run starts beside the instance (own namespace on the
// bridge, cgroup of the VM size): without encryption, with TLS, at rest, both. While each engine
// runs, this test looks at it from outside the worker: a TLS engine refuses plaintext on 6379
// and hands out a certificate on 6380, and the data files of an engine with encryption at rest
// never hold the suite's keys (memtier-…) in the clear while a plain engine's do. Afterwards:
// one row per variant and value size (the list ran in three rounds, a fresh engine each run),
// the median round's with every round beside it, each with its engine's own INFO security,
// overheads of the medians computed from them, and nothing of the engines left (namespace,
// cgroup, run directory).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import tls from 'node:tls';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ENCRYPTION_VARIANTS, encryptionOverhead, type EncryptionVariant } from '@basalt/api-client/rules';
import { renderBenchmarkReport, typeReportDocumentOf } from '@basalt/api-client';
import { createDatabase, schema, type Database } from '@basalt/db';
import { namespacePids, namespaceProcesses } from './support/netns.js';
import { startProvisioningPlatform, type ProvisioningPlatform } from './support/stack.js';

let platform: ProvisioningPlatform;
let database: Database;
let instanceId = '';

beforeAll(async () => {
  platform = await startProvisioningPlatform('prov_enc');
  database = createDatabase(platform.databaseUrl, { max: 2 });
  const { data, response } = await platform.client.POST('/v1/projects/{project}/instances', {
    params: { path: { project: platform.projectId } },
    body: { name: 'encrypted', instance_type: 'kv.standard.small', region: 'local', engine_version: '1.0', tls_enabled: false, deletion_protection: false },
  });
  expect(response.status).toBe(202);
  instanceId = data!.instance.id;
  await platform.waitForStatus(instanceId, ['running'], 240_000);
});

afterAll(async () => {
  await database?.close();
  await platform?.stop();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** What the TCP port does: accepts, or refuses. */
const accepts = (host: string, port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect({ host, port });
    socket.setTimeout(2_000, () => (socket.destroy(), resolve(false)));
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

/** The subject of the certificate a TLS handshake on the port shows (undefined: no handshake). */
const tlsSubject = (host: string, port: number) =>
  new Promise<string | undefined>((resolve) => {
    const socket = tls.connect({ host, port, rejectUnauthorized: false });
    socket.setTimeout(2_000, () => (socket.destroy(), resolve(undefined)));
    socket.once('secureConnect', () => {
      const subject = socket.getPeerCertificate().subject?.CN;
      socket.destroy();
      resolve(Array.isArray(subject) ? subject[0] : subject);
    });
    socket.once('error', () => resolve(undefined));
  });

/** Whether a file of `dir` holds `needle` (files may go while this reads: the run removes the engine's directory). */
function holds(dir: string, needle: string): boolean | undefined {
  try {
    const files = fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
    if (files.length === 0) return undefined;
    return files.some((e) => fs.readFileSync(path.join(e.parentPath, e.name)).includes(Buffer.from(needle)));
  } catch {
    return undefined;
  }
}

interface Seen {
  variant: EncryptionVariant;
  address: string;
  plaintextAccepted: boolean[];
  tlsSubjects: (string | undefined)[];
  keysInClear: boolean[];
  lastScan: number;
  /** The CPU limit of the engine process's cgroup (vCPUs), read once. */
  cpus?: number;
}

/** vCPUs the cgroup of `pid` may use (cgroup v1 cpu.cfs_quota_us or v2 cpu.max); undefined when unlimited or gone. */
function cpuLimit(pid: number): number | undefined {
  try {
    const lines = fs.readFileSync(`/proc/${pid}/cgroup`, 'utf8').split('\n');
    const v1 = lines.find((l) => /^\d+:([^:]*,)?cpu(,[^:]*)?:/.test(l))?.split(':')[2];
    if (v1) {
      const dir = fs.existsSync(`/sys/fs/cgroup/cpu${v1}`) ? `/sys/fs/cgroup/cpu${v1}` : `/sys/fs/cgroup/cpu,cpuacct${v1}`;
      const quota = Number(fs.readFileSync(`${dir}/cpu.cfs_quota_us`, 'utf8'));
      return quota > 0 ? quota / Number(fs.readFileSync(`${dir}/cpu.cfs_period_us`, 'utf8')) : undefined;
    }
    const v2 = lines.find((l) => l.startsWith('0::'))?.slice(3);
    const [quota, period] = fs.readFileSync(`/sys/fs/cgroup${v2}/cpu.max`, 'utf8').trim().split(' ');
    return quota === 'max' ? undefined : Number(quota) / Number(period);
  } catch {
    return undefined;
  }
}

/** Data scans per engine and the time between them: reading a 4 KB scenario's log is heavy and would slow the engine measured. */
const SCANS = 3;
const SCAN_EVERY_MS = 1_000;

describe('encryption-overhead through the API and the worker', () => {
  test('three rounds of four variants per value size, each really encrypted as it says, overheads from the stored rows, nothing left', { timeout: 400_000 }, async () => {
    const { data, response, error } = await platform.client.POST('/v1/projects/{project}/instances/{instance}/benchmarks', {
      params: { path: { project: platform.projectId, instance: instanceId } },
      body: { workload: 'encryption-overhead' },
    });
    expect(response.status, JSON.stringify(error)).toBe(202);
    const benchmarkId = data!.benchmark.id;
    const operationId = data!.operation.id;
    const engineDir = path.join(platform.dataDir, 'runs', instanceId, operationId, 'benchmark', 'engine', 'data');

    // Watch each engine while it serves its scenario's round (the worker announces it in an event).
    const seen = new Map<string, Seen>();
    const deadline = Date.now() + 360_000;
    let finished = false;
    while (!finished && Date.now() < deadline) {
      const events = await database.db.select().from(schema.operationEvents).where(eq(schema.operationEvents.operationId, operationId)).orderBy(asc(schema.operationEvents.id));
      const engines = events.filter((e) => e.kind === 'benchmark_engine');
      const current = engines.at(-1);
      const done = events.filter((e) => e.kind === 'benchmark_scenario_finished').length;
      const [op] = await database.db.select().from(schema.operations).where(eq(schema.operations.id, operationId));
      finished = op!.status === 'succeeded' || op!.status === 'failed';
      // The latest engine is still serving while its scenario has not finished.
      if (current && !finished && done < engines.length) {
        const info = current.data as { scenario: number; round: number; address: string };
        expect(execFileSync('ip', ['-o', 'route', 'get', info.address], { encoding: 'utf8' })).toMatch(/ dev basalt0 /);
        const variant = ENCRYPTION_VARIANTS[(info.scenario - 1) % ENCRYPTION_VARIANTS.length]!;
        const name = `scenario ${info.scenario} round ${info.round}`;
        const entry = seen.get(name) ?? { variant, address: info.address, plaintextAccepted: [], tlsSubjects: [], keysInClear: [], lastScan: 0 };
        seen.set(name, entry);
        if (entry.cpus === undefined) {
          const [engine] = namespaceProcesses(`basalt-peer-${benchmarkId.replace(/-/g, '').slice(0, 12)}`, 'basalt-server');
          if (engine) entry.cpus = cpuLimit(engine);
        }
        if (entry.plaintextAccepted.length < 3) {
          const accepted = await accepts(info.address, 6379);
          const subject = variant.tls ? await tlsSubject(info.address, 6380) : undefined;
          // A probe counts only if the engine still served when it ended: the worker stops an
          // engine right after its round's finished event, which may land between the read above
          // and the probe (a loaded host saw a plain engine "refuse" that way).
          const finishedSince = (await database.db.select().from(schema.operationEvents).where(eq(schema.operationEvents.operationId, operationId)))
            .filter((e) => e.kind === 'benchmark_scenario_finished').length;
          if (finishedSince === done) {
            entry.plaintextAccepted.push(accepted);
            if (variant.tls) entry.tlsSubjects.push(subject);
          }
        }
        const found = entry.keysInClear.some(Boolean);
        if (!found && entry.keysInClear.length < SCANS && Date.now() - entry.lastScan >= SCAN_EVERY_MS) {
          entry.lastScan = Date.now();
          const inClear = holds(engineDir, 'memtier-');
          if (inClear !== undefined) entry.keysInClear.push(inClear);
        }
      }
      await sleep(150);
    }
    const operation = await platform.waitForOperation(operationId, 30_000);
    expect(operation.status, JSON.stringify(operation.error) + platform.workerLog().slice(-3000)).toBe('succeeded');

    // Observed from outside, engine by engine (8 scenarios in 3 rounds: 24 engines).
    expect([...seen.keys()].length).toBeGreaterThanOrEqual(16);
    expect([...seen.values()].filter((e) => e.plaintextAccepted.length > 0).length, 'engines probed while serving').toBeGreaterThanOrEqual(16);
    for (const [name, entry] of seen) {
      const what = `${name} ${JSON.stringify(entry.variant)}`;
      // The engine served from a cgroup of the type's VM size (kv.standard.small: 1 vCPU).
      if (entry.cpus !== undefined) expect(entry.cpus, what).toBe(1);
      if (entry.plaintextAccepted.length === 0) {
        // Every probe of this engine raced its stop; the others above answer for the variant.
      } else if (entry.variant.tls) {
        expect(entry.plaintextAccepted.some(Boolean), `${what}: plaintext port accepted`).toBe(false);
        expect(entry.tlsSubjects.filter(Boolean), `${what}: no TLS handshake`).toContain('basalt-bench-engine');
      } else {
        expect(entry.plaintextAccepted.every(Boolean), `${what}: plaintext port refused`).toBe(true);
      }
      if (entry.variant.at_rest) expect(entry.keysInClear.some(Boolean), `${what}: keys in the clear on disk`).toBe(false);
      else if (entry.keysInClear.length === SCANS) expect(entry.keysInClear.some(Boolean), `${what}: plain engine's data files hold no key`).toBe(true);
    }
    // At least one plain and one at-rest engine were seen with data on disk.
    expect([...seen.values()].some((e) => !e.variant.at_rest && e.keysInClear.some(Boolean))).toBe(true);
    expect([...seen.values()].some((e) => e.variant.at_rest && e.keysInClear.length > 0)).toBe(true);

    // Stored: one row per variant and value size, its engine's INFO security beside basalt-bench's JSON, in every round.
    const { data: run } = await platform.client.GET('/v1/projects/{project}/instances/{instance}/benchmarks/{benchmark}', {
      params: { path: { project: platform.projectId, instance: instanceId, benchmark: benchmarkId } },
    });
    expect(run!.status).toBe('succeeded');
    expect(run!.scenarios.map((s) => [s.position, s.server, s.value_size, s.errors])).toEqual(
      [128, 4096].flatMap((size, i) => ENCRYPTION_VARIANTS.map((_, v) => [i * 4 + v + 1, 'basalt', size, 0])),
    );
    for (const s of run!.scenarios) {
      const enc = (s.report as { encryption: EncryptionVariant & { engine_info: Record<string, string>; keys_in_clear_on_disk: boolean } }).encryption;
      expect(s.encryption).toEqual({ tls: enc.tls, at_rest: enc.at_rest });
      expect(enc.engine_info).toEqual({ tls_port: enc.tls ? '6380' : '0', plaintext_port: enc.tls ? '0' : '6379', encryption_at_rest: enc.at_rest ? 'on' : 'off' });
      expect(enc.keys_in_clear_on_disk, s.name).toBe(!enc.at_rest);
      expect(s.command_line).toContain(enc.tls ? '--port=6380 ' : '--port=6379 ');
      expect(s.command_line.includes('--tls --cacert=ca.pem')).toBe(enc.tls);
      expect(s.requests).toBe(30_000);
      const rounds = (s.report as { rounds: { 'Ops/sec': number; median: boolean; report: { encryption: typeof enc } }[] }).rounds;
      expect(rounds.map((r) => r['Ops/sec']), s.name).toEqual(s.round_ops_per_sec);
      for (const r of rounds) expect(r.report.encryption, s.name).toMatchObject({ tls: enc.tls, at_rest: enc.at_rest, keys_in_clear_on_disk: !enc.at_rest });
      expect(rounds.find((r) => r.median)!['Ops/sec']).toBe(s.qps);
    }
    const table = encryptionOverhead(run!.scenarios);
    expect(table).toHaveLength(8);
    expect([...seen.values()].filter((e) => e.cpus === 1).length).toBeGreaterThanOrEqual(4);
    for (const s of run!.scenarios) {
      // Nearly every GET found a value (the small key set fills within the first thousand SETs).
      const gets = (s.report!['ALL STATS'] as Record<string, Record<string, number>>).Gets!;
      expect(gets.Misses!, s.name).toBeLessThan(gets.Hits! / 10);
    }
    for (const row of table) {
      expect(row.scenarios).toHaveLength(1);
      expect(row.runs).toBe(3);
      const sorted = [...row.scenarios[0]!.round_ops_per_sec!].sort((a, b) => a - b);
      expect(row.qps).toBe(sorted[1]);
      console.log(`${row.valueSize} B ${row.label}: median ${Math.round(row.qps)} ops/s (runs ${sorted.map(Math.round).join(', ')}), overhead ${row.overheadPercent?.toFixed(1)}%, p99 ${row.p99LatencyMs} ms`);
      expect(row.overheadPercent).toBeCloseTo(((row.baselineQps! - row.qps) / row.baselineQps!) * 100, 6);
    }
    expect(run!.results).toMatchObject({ peer: null, engines: { placement: expect.stringContaining('cgroup of 1 vCPU / 2048 MiB') } });
    const markdown = renderBenchmarkReport(typeReportDocumentOf({ instanceType: 'kv.standard.small', typeSize: '1 vCPU, 2 GiB', measuredAt: new Date().toISOString(), host: 'this host', load: 'shared', commit: null }, [run!]));
    expect(markdown).toContain('| Value | Encryption | Conns | Runs | Without encryption ops/s | With it ops/s | Lowest–highest run | Overhead | p99 ms |');

    // Nothing of the engines is left: no namespace, no address held, no run directory with keys.
    const hex = benchmarkId.replace(/-/g, '').slice(0, 12);
    expect(execFileSync('ip', ['netns', 'list'], { encoding: 'utf8' })).not.toContain(hex);
    const [stored] = await database.db.select().from(schema.benchmarks).where(eq(schema.benchmarks.id, benchmarkId));
    expect(stored).toMatchObject({ peerNamespace: null, clientNamespace: null });
    expect(fs.existsSync(path.dirname(path.dirname(engineDir)))).toBe(false);
    expect((await platform.getInstance(instanceId)).status).toBe('running');
  });

  test('a cancel mid-suite stops the client and removes the engine, its namespace, cgroup and files within seconds', { timeout: 200_000 }, async () => {
    const { data } = await platform.client.POST('/v1/projects/{project}/instances/{instance}/benchmarks', {
      params: { path: { project: platform.projectId, instance: instanceId } },
      body: { workload: 'encryption-overhead' },
    });
    const benchmarkId = data!.benchmark.id;
    const operationId = data!.operation.id;
    const hex = benchmarkId.replace(/-/g, '').slice(0, 12);
    const runDir = path.join(platform.dataDir, 'runs', instanceId, operationId, 'benchmark');
    // Cancel while the TLS engine of the first round serves its scenario.
    const deadline = Date.now() + 120_000;
    for (;;) {
      expect(Date.now()).toBeLessThan(deadline);
      const events = await database.db.select().from(schema.operationEvents).where(eq(schema.operationEvents.operationId, operationId));
      if (events.some((e) => e.kind === 'benchmark_scenario_started' && (e.data as { scenario: number }).scenario === 2)) break;
      await sleep(100);
    }
    const pids = namespacePids(`basalt-peer-${hex}`);
    expect(namespaceProcesses(`basalt-peer-${hex}`, 'basalt-server')).not.toEqual([]);
    expect(fs.existsSync(path.join(runDir, 'engine', 'basalt.toml'))).toBe(true);
    const asked = Date.now();
    const cancel = await platform.client.POST('/v1/projects/{project}/instances/{instance}/benchmarks/{benchmark}/cancel', {
      params: { path: { project: platform.projectId, instance: instanceId, benchmark: benchmarkId } },
    });
    expect(cancel.response.status).toBeLessThan(300);
    const operation = await platform.waitForOperation(operationId, 60_000);
    console.log(`cancel -> operation ${operation.status} after ${((Date.now() - asked) / 1000).toFixed(1)} s`);
    expect(operation.status).toBe('failed');
    expect(operation.error).toMatchObject({ message: 'cancelled by a user' });
    expect(Date.now() - asked).toBeLessThan(15_000);
    const { data: run } = await platform.client.GET('/v1/projects/{project}/instances/{instance}/benchmarks/{benchmark}', {
      params: { path: { project: platform.projectId, instance: instanceId, benchmark: benchmarkId } },
    });
    expect(run!.status).toBe('cancelled');
    // Nothing of the engine is left: its processes, namespace, cgroup, address and files.
    for (const pid of pids) expect(fs.existsSync(`/proc/${pid}`), `engine process ${pid}`).toBe(false);
    expect(execFileSync('ip', ['netns', 'list'], { encoding: 'utf8' })).not.toContain(hex);
    for (const dir of [`/sys/fs/cgroup/basalt/basalt-peer-${hex}`, `/sys/fs/cgroup/cpu/basalt/basalt-peer-${hex}`, `/sys/fs/cgroup/memory/basalt/basalt-peer-${hex}`]) expect(fs.existsSync(dir)).toBe(false);
    const [stored] = await database.db.select().from(schema.benchmarks).where(eq(schema.benchmarks.id, benchmarkId));
    expect(stored).toMatchObject({ peerAddress: null, peerNamespace: null, clientNamespace: null });
    expect(fs.existsSync(runDir)).toBe(false);
  });
});
