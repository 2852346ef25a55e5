// benchmark: runs a suite's scenarios with basalt-bench against the instance's endpoint from
// a client on this host (benchmark/client-target.ts), one scenario after the other, and
// stores each as a row with basalt-bench's full JSON. One at a time per instance (the
// instance lease of runOperation); every scenario bounded in time; a cancel from the API
// stops the client within seconds. A failed or cancelled run leaves the instance as it is.
import fs from 'node:fs';
import path from 'node:path';
import type { BenchmarkSuite } from '@basalt/api-client/rules';
import type { BenchmarkJob, BenchmarkRow, BenchmarksRepository } from '@basalt/db';
import type { JobContext } from '../context.js';
import { StepError } from '../errors.js';
import type { OperationRun } from '../operation.js';
import { BENCH_ADDRESS_SPACE_MAX, runBench } from '../benchmark/bench-process.js';
import { waitQuiet, type QuietTarget } from '../benchmark/server-quiet.js';
import { benchmarkRunDir, releaseClientNamespace } from '../benchmark/client-namespace.js';
import { createClientCgroup, removeClientCgroup, type ClientCgroup } from '../benchmark/client-cgroup.js';
import { cgroupHost } from '../benchmark/host-cgroup.js';
import { prepareTarget, type PreparedTarget } from '../benchmark/client-target.js';
import { cacheCounters, counterDelta, setFsync, setMaxmemory, type CacheCounters, type EngineControl } from '../benchmark/engine-control.js';
import { dataHoldsInClear, startEncryptionEngine, type EncryptionEngine } from '../benchmark/encryption-engine.js';
import { startPeer, stopPeer, type Peer, type PeerKind, type SlotPlace } from '../benchmark/peer-server.js';
import { makeCa, type CertificateAndKey } from '../instance-ca.js';
import type { ClientTarget } from '../benchmark/scenario-command.js';
import { infoAs } from '../resp.js';
import { clientArgs, displayCommand, writeAuthFile } from '../benchmark/scenario-command.js';
import { scenarioFigures } from '../benchmark/scenario-figures.js';
import { ENCRYPTION_SUITE_KEY_PREFIX } from '../benchmark/suite-encryption.js';
import { peerOf, planScenarios, type Scenario } from '../benchmark/suites.js';
import { RoundBook, roundsRecord, type MeasuredRound, type RoundOf, type RoundsDone } from '../benchmark/rounds.js';
import { runOperation, type InstanceWork, type Outcome } from './run-operation.js';

/** How often the job looks for a cancel request while its client runs. */
const CANCEL_POLL_MS = 500;
/** At most one live ops/s event per scenario per this interval. */
const PROGRESS_EVERY_MS = 1_000;

export async function benchmark(ctx: JobContext, payload: BenchmarkJob): Promise<Outcome> {
  const benchmarks = ctx.repo.benchmarks();
  return runOperation(ctx, payload, {
    kind: 'benchmark',
    settle: (outcome) => recordStatus(benchmarks, payload.benchmark_id, outcome),
    work: async (args) => {
      try {
        await runSuite(ctx, benchmarks, payload, args);
      } finally {
        // Also after a failure before the namespace was made: a crashed attempt's may be left.
        await stopPeer(ctx, payload.benchmark_id).catch((error: Error) => ctx.log(`[${payload.benchmark_id}] benchmark peer cleanup: ${error.message}`));
        await releaseClientNamespace(ctx, payload.benchmark_id).catch((error: Error) => ctx.log(`[${payload.benchmark_id}] benchmark client cleanup: ${error.message}`));
        await removeClientCgroup(cgroupHost(ctx.config.root), payload.benchmark_id).catch((error: Error) => ctx.log(`[${payload.benchmark_id}] benchmark client cgroup cleanup: ${error.message}`));
      }
    },
  });
}

async function runSuite(ctx: JobContext, benchmarks: BenchmarksRepository, payload: BenchmarkJob, { instance, region, type, run }: InstanceWork<'benchmark'>): Promise<void> {
  const row = await loadRun(benchmarks, payload.benchmark_id);
  if (instance.status !== 'running') throw new StepError('prepare', `the instance is ${instance.status}, not running`);
  await benchmarks.clearScenarios(row.id);
  await benchmarks.update(row.id, { status: 'running', startedAt: new Date(), finishedAt: null, results: null });
  const runDir = benchmarkRunDir(ctx, instance.id, run.operationId);
  fs.mkdirSync(runDir, { recursive: true, mode: 0o700 });
  const cancel = watchCancel(benchmarks, row.id);
  let peer: Peer | undefined;
  try {
    const { scenarios, prepared, clientCgroup } = await run.step('prepare', async () => ({
      scenarios: planScenarios(row.workload as BenchmarkSuite, type, row.parameters as Record<string, unknown>, ctx.config.standardScenarioSeconds),
      prepared: await prepareTarget(ctx, instance, region, runDir, row.id),
      clientCgroup: await createClientCgroup(cgroupHost(ctx.config.root), row.id),
    }), { attempts: 3, baseDelayMs: 1000 });
    // The client's runs are placed and bounded alike: its namespace (if any) and its cgroup.
    const client = { ...prepared, clientCgroup };
    if (clientCgroup.name === undefined) ctx.log(`[${row.id}] benchmark client: no cgroup available (${clientCgroup.unavailable}); it runs under prlimit --as=${BENCH_ADDRESS_SPACE_MAX} alone, with no CPU bound`);
    const from = `${prepared.namespace ? `from ${prepared.clientAddress} (network namespace ${prepared.namespace.name} on ${ctx.config.bridge})` : `from this host (${prepared.clientAddress})`}, ${bounds(clientCgroup)}`;
    const measured = scenarios.some((s) => s.encryption)
      ? `engines of the instances' build started for the run beside the instance (not the instance at ${prepared.target.host}:${prepared.target.port}, engine ${prepared.engineVersion})`
      : `${prepared.target.host}:${prepared.target.port}`;
    await run.event('benchmark_plan', 'prepare', `${row.workload}: ${scenarios.length} scenario(s) against ${measured} ${from}${scenarios.some((s) => s.encryption) ? '' : ` (engine ${prepared.engineVersion})`}`, {
      scenarios: scenarios.map((s) => s.name),
      client_address: prepared.clientAddress,
      client_namespace: prepared.namespace?.name ?? null,
      client_cgroup: clientCgroup.name ?? null,
    });
    // The peer column (standard suites): Redis or memcached in the same run.
    const peerKind = peerOf(row.workload as BenchmarkSuite);
    let peerNote: string | null = peerKind ? null : 'no peer for a custom run';
    // The run's servers are placed like the instance: on the bridge beside its VM, or on loopback beside its process VM.
    const place: SlotPlace = prepared.namespace ? 'bridge' : 'loopback';
    const fsync = async () => (await infoAs(prepared.engine.host, prepared.engine.port, prepared.engine.user, prepared.engine.password, 'persistence', prepared.engine.secure)).appendfsync ?? 'everysec';
    // Read before any scenario sets its own (canonical-durability): what both servers go back to.
    const instancePolicy = await fsync();
    // encryption-overhead: engines of the instances' build, each started for its scenario in the run's server slot.
    let engines: { fsync: string; ca: CertificateAndKey } | undefined;
    if (scenarios.some((s) => s.encryption)) {
      engines = { fsync: instancePolicy, ca: await makeCa(row.id) };
      peerNote = "no peer: encryption-overhead sets Basalt's engine against itself, with and without encryption";
    }
    let enginePlacement: string | undefined;
    if (peerKind) {
      peer = await run.step('prepare', () => startPeer(ctx, row.id, region, type, peerKind, instancePolicy, place, runDir));
      peerNote = peer.placement;
      await run.event('benchmark_peer', 'prepare', `peer: ${peer.version}, ${peer.placement}`, { server: peer.kind, version: peer.version });
    }
    // Each server is measured alone: before a scenario, neither the instance nor a Redis peer runs background work (server-quiet.ts).
    const quietTargets: QuietTarget[] = [
      { name: `the instance (engine ${prepared.engineVersion})`, host: prepared.engine.host, port: prepared.engine.port, username: prepared.engine.user, password: prepared.engine.password, secure: prepared.engine.secure },
      ...(peer?.kind === 'redis' ? [{ name: peer.version, host: peer.target.host, port: peer.target.port, username: peer.target.username, password: peer.target.password ?? '' }] : []),
    ];
    const settle = async (index: number, server: string) => {
      const { waitedMs, quiet, busy } = await waitQuiet(quietTargets, cancel.signal);
      if (waitedMs < 1000 && quiet) return;
      const text = quiet
        ? `waited ${(waitedMs / 1000).toFixed(1)} s for the servers' background work (log compaction, AOF rewrite) before scenario ${index + 1} on ${server}`
        : `${busy.join(' and ')} still had background work after ${waitedMs / 1000} s; scenario ${index + 1} on ${server} runs beside it`;
      await run.event('benchmark_quiet', 'run_scenarios', text, { scenario: index + 1, server, waited_ms: waitedMs, quiet, busy });
    };
    await run.step('run_scenarios', async () => {
      // Bytes of data in the engine after a suite's load: what a memory:data ratio is made from.
      let loaded: number | undefined;
      let boundChanged = false;
      // The servers whose fsync policy a durability scenario sets (the engine, a Redis peer), and the instance's policy they go back to.
      const fsyncServers: EngineControl[] = [prepared.engine, ...(peer?.kind === 'redis' ? [{ host: peer.target.host, port: peer.target.port, user: peer.target.username, password: peer.target.password ?? '' }] : [])];
      let fsyncChanged = false;
      // A suite of rounds (memtier-standard) runs its whole list once per round; each scenario's
      // row is stored with its last round, the median round's (rounds.ts).
      const roundCount = Math.max(...scenarios.map((s) => s.rounds ?? 1));
      const rounds = new RoundBook();
      try {
        for (let round = 1; round <= roundCount; round++) {
          for (const [index, scenario] of scenarios.entries()) {
            if (round > (scenario.rounds ?? 1)) continue;
            const at: RoundOf = { round, of: scenario.rounds ?? 1, suiteRounds: roundCount, book: rounds };
            if (cancel.signal.aborted) throw cancelled();
            if (scenario.memoryToData !== undefined) {
              if (loaded === undefined) throw new StepError('run_scenarios', `${scenario.name}: no data was loaded before it`);
              boundChanged = true;
              await setMaxmemory(prepared.engine, Math.max(1, loaded * scenario.memoryToData));
            } else if (boundChanged) {
              // A scenario after a low-memory one (canonical-tables) runs with the instance's own bound.
              boundChanged = false;
              await setMaxmemory(prepared.engine, prepared.maxmemory);
            }
            if (scenario.fsync !== undefined) {
              fsyncChanged = true;
              for (const server of fsyncServers) await setFsync(server, scenario.fsync);
            }
            if (scenario.encryption && engines) {
              const engine = await startEncryptionEngine(ctx, row.id, region, type, scenario.encryption, engines.fsync, place, runDir, engines.ca);
              enginePlacement = engine.placement;
              const { tls_port, plaintext_port, encryption_at_rest } = engine.security;
              await run.event('benchmark_engine', 'run_scenarios', `engine for ${scenario.name}${roundSuffix(at)}: ${engine.target.host}, tls_port ${tls_port}, plaintext_port ${plaintext_port}, encryption_at_rest ${encryption_at_rest}`, {
                scenario: index + 1,
                round: at.round,
                address: engine.target.host,
                ...engine.security,
              });
              try {
                const against: Against = { server: 'basalt', target: engine.target, version: engine.version, recordAfter: () => encryptionRecord(engine) };
                await runScenario(ctx, run, benchmarks, row, client, runDir, scenario, index, scenarios.length, cancel.signal, against, at);
              } finally {
                await stopPeer(ctx, row.id).catch((error: Error) => ctx.log(`[${row.id}] could not stop the engine: ${error.message}`));
              }
              continue;
            }
            const counted = scenario.mode === 'ycsb-load' || scenario.mode === 'ycsb-run' || scenario.memoryToData !== undefined;
            const before = counted ? await cacheCounters(prepared.engine) : undefined;
            const basalt: Against = { server: 'basalt', target: prepared.target, version: prepared.engineVersion, before };
            await settle(index, basalt.server);
            await runScenario(ctx, run, benchmarks, row, client, runDir, scenario, index, scenarios.length, cancel.signal, basalt, at);
            if (scenario.mode === 'ycsb-load' || scenario.workload === 'canonical-load') loaded = (await cacheCounters(prepared.engine)).used_memory;
            if (peer && !scenario.peerSkip) {
              if (cancel.signal.aborted) throw cancelled();
              const against: Against = { server: peer.kind, target: peer.target, version: peer.version };
              await settle(index, against.server);
              await runScenario(ctx, run, benchmarks, row, client, runDir, scenario, index, scenarios.length, cancel.signal, against, at);
            }
          }
        }
      } finally {
        if (boundChanged) {
          await setMaxmemory(prepared.engine, prepared.maxmemory).catch((error: Error) => ctx.log(`[${row.id}] could not restore maxmemory ${prepared.maxmemory}: ${error.message}`));
        }
        if (fsyncChanged) {
          for (const server of fsyncServers) {
            await setFsync(server, instancePolicy).catch((error: Error) => ctx.log(`[${row.id}] could not restore appendfsync ${instancePolicy} on ${server.host}: ${error.message}`));
          }
        }
      }
    });
    await benchmarks.update(row.id, {
      results: {
        suite: row.workload,
        scenarios: scenarios.length,
        engine_version: prepared.engineVersion,
        scaling: [...new Set(scenarios.map((s) => s.scaling).filter((s): s is string => !!s))],
        client: { address: prepared.clientAddress, network_namespace: prepared.namespace ? true : false, bridge: prepared.namespace ? ctx.config.bridge : null },
        peer: peer ? { server: peer.kind, version: peer.version, placement: peer.placement } : null,
        peer_note: peerNote,
        engines: enginePlacement ? { placement: enginePlacement, instance_engine_version: prepared.engineVersion } : null,
        peer_skipped: scenarios.filter((s) => s.peerSkip).map((s) => ({ name: s.name, why: s.peerSkip })),
      },
    });
  } finally {
    cancel.stop();
    if (peer) await stopPeer(ctx, row.id).catch((error: Error) => ctx.log(`[${row.id}] could not stop the peer: ${error.message}`));
    fs.rmSync(runDir, { recursive: true, force: true });
  }
}

/** How the client is bounded on this host, for the run's plan event. */
function bounds(cgroup: ClientCgroup): string {
  return cgroup.name !== undefined ? `in cgroup ${cgroup.name} (${cgroup.cpus} CPU, ${cgroup.memoryMb} MiB)` : `under prlimit --as=${BENCH_ADDRESS_SPACE_MAX} (no cgroup: ${cgroup.unavailable})`;
}

async function loadRun(benchmarks: BenchmarksRepository, id: string): Promise<BenchmarkRow> {
  const row = await benchmarks.getForJob(id);
  if (!row) throw new StepError('prepare', `benchmark ${id} does not exist`);
  if (row.cancelRequestedAt) throw cancelled();
  return row;
}

const cancelled = () => new StepError('run_scenarios', 'cancelled by a user');

/** Which server a scenario runs against: the instance's engine, or the run's peer. */
interface Against {
  server: 'basalt' | PeerKind;
  target: ClientTarget;
  version: string;
  /** The engine's cache counters before the scenario (the instance only). */
  before?: CacheCounters;
  /** Facts about the server stored beside basalt-bench's JSON, gathered once the client finished. */
  recordAfter?: () => Record<string, unknown>;
}

/**
 * What an encryption-overhead row carries: the variant, the engine's own INFO security, and
 * whether its data files hold the suite's keys in the clear. An engine with encryption at rest
 * that wrote a key in the clear fails the run: its figure would not be the cost of encryption.
 */
function encryptionRecord(engine: EncryptionEngine): Record<string, unknown> {
  const keysInClear = dataHoldsInClear(engine.dataDir, ENCRYPTION_SUITE_KEY_PREFIX);
  if (engine.variant.at_rest && keysInClear) throw new StepError('run_scenarios', `the engine with encryption at rest wrote the suite's keys (${ENCRYPTION_SUITE_KEY_PREFIX}…) to its data files in the clear`);
  return { encryption: { ...engine.variant, engine_info: engine.security, keys_in_clear_on_disk: keysInClear } };
}

/** The run's status as its operation finishes (a skipped or busy job never gets here). */
async function recordStatus(benchmarks: BenchmarksRepository, id: string, outcome: 'succeeded' | 'failed'): Promise<void> {
  const row = await benchmarks.getForJob(id);
  if (!row) return;
  const status = outcome === 'succeeded' ? 'succeeded' : row.cancelRequestedAt ? 'cancelled' : 'failed';
  await benchmarks.update(id, { status, finishedAt: new Date() });
}

/** Aborts `signal` once the API has recorded a cancel request for the run. */
function watchCancel(benchmarks: BenchmarksRepository, id: string): { signal: AbortSignal; stop(): void } {
  const controller = new AbortController();
  const timer = setInterval(() => {
    benchmarks
      .getForJob(id)
      .then((row) => {
        if (row?.cancelRequestedAt) controller.abort();
      })
      .catch(() => {});
  }, CANCEL_POLL_MS);
  return { signal: controller.signal, stop: () => clearInterval(timer) };
}

async function runScenario(
  ctx: JobContext,
  run: OperationRun<never>,
  benchmarks: BenchmarksRepository,
  row: BenchmarkRow,
  prepared: PreparedTarget & { clientCgroup: ClientCgroup },
  runDir: string,
  scenario: Scenario,
  index: number,
  count: number,
  signal: AbortSignal,
  /** The server measured: the instance (with its cache counters before), or the run's peer. */
  against: Against,
  /** Which round of the scenario this is, and the book of the rounds measured so far. */
  at: RoundOf,
): Promise<void> {
  const before = against.before;
  const label = `scenario ${index + 1} of ${count}: ${scenario.name}${against.server === 'basalt' ? '' : ` (${against.version})`}${roundSuffix(at)}`;
  const jsonFile = path.join(runDir, `scenario-${index + 1}-${against.server}.json`);
  fs.rmSync(jsonFile, { force: true });
  await run.event('benchmark_scenario_started', 'run_scenarios', label, { scenario: index + 1, of: count, name: scenario.name, server: against.server, round: at.round, rounds: at.of });
  let lastEvent = 0;
  const startedAt = new Date();
  const outcome = await runBench({
    binary: ctx.config.benchBinary,
    args: clientArgs(against.target, scenario, jsonFile, writeAuthFile(runDir, against.target, `authenticate-${against.server}`)),
    jsonFile,
    timeoutMs: scenario.timeoutMs,
    namespace: prepared.namespace?.name,
    cgroup: prepared.clientCgroup.name ? { host: cgroupHost(ctx.config.root), name: prepared.clientCgroup.name } : undefined,
    signal,
    onProgress: (progress) => {
      if (Date.now() - lastEvent < PROGRESS_EVERY_MS) return;
      lastEvent = Date.now();
      const data = { scenario: index + 1, of: count, name: scenario.name, round: at.round, rounds: at.of, ops_per_sec: progress.opsPerSec, percent: progress.percent ?? null };
      void run.event('benchmark_progress', 'run_scenarios', `${label}: ${progress.opsPerSec} ops/s`, data).catch(() => {});
    },
  });
  const finishedAt = new Date();
  if (outcome.kind === 'cancelled') throw cancelled();
  if (outcome.kind === 'timed_out') throw new StepError('run_scenarios', `${label}: still running after ${scenario.timeoutMs / 1000} s; stopped`);
  if (outcome.kind === 'failed') throw new StepError('run_scenarios', `${label}: ${outcome.message}`, outcome.exitCode, outcome.stderrTail);

  // basalt-bench's JSON as it wrote it, and beside it what the engine counted (cold reads).
  const measuredReport = {
    ...outcome.report,
    ...(before ? { 'engine counters': counterDelta(before, await cacheCounters(prepared.engine)) } : {}),
    ...(against.recordAfter ? against.recordAfter() : {}),
  };
  const measured: MeasuredRound = { round: at.round, figures: scenarioFigures(outcome.report), report: measuredReport, startedAt, finishedAt };
  const { figures } = measured;
  const cold = before ? `, ${(measuredReport['engine counters'] as { cold_reads: number }).cold_reads} cold reads` : '';
  await run.event('benchmark_scenario_finished', 'run_scenarios', `${label}: ${Math.round(figures.qps)} ops/s, p99 ${figures.p99LatencyMs ?? '?'} ms${cold}`, {
    scenario: index + 1,
    of: count,
    round: at.round,
    rounds: at.of,
    qps: figures.qps,
    errors: figures.errors,
    server: against.server,
  });
  // A run with errors is stored at once with the rounds before it (the run fails after it).
  const failed = outcome.exitCode !== 0;
  const done = at.book.add(`${index + 1}/${against.server}`, measured, failed ? at.round : at.of);
  if (done) await storeScenario(benchmarks, row, scenario, index, against, done);
  if (failed) throw new StepError('run_scenarios', `${label}: basalt-bench reported ${figures.errors} error(s)`, outcome.exitCode, outcome.stderrTail);
  if (against.server === 'basalt') {
    const finished = (at.round - 1) * count + index + 1;
    await ctx.repo.updateOperation(run.operationId, { progress: Math.min(99, Math.floor((finished / (count * at.suiteRounds)) * 100)) });
  }
}

/** ", round 2 of 3" in an event's text; nothing for a scenario measured once. */
function roundSuffix(at: RoundOf): string {
  return at.of > 1 ? `, round ${at.round} of ${at.of}` : '';
}

/** The scenario's row: the median round's figures and JSON, every round's JSON beside it. */
async function storeScenario(benchmarks: BenchmarksRepository, row: BenchmarkRow, scenario: Scenario, index: number, against: Against, done: RoundsDone): Promise<void> {
  const { median, all } = done;
  const figures = median.figures;
  const report = all.length > 1 ? { ...median.report, rounds: roundsRecord(done) } : median.report;
  await benchmarks.insertScenario({
    benchmarkId: row.id,
    position: index + 1,
    name: scenario.name,
    tool: figures.tool,
    commandLine: displayCommand(against.target, scenario),
    workload: scenario.workload,
    valueSize: scenario.valueSize ?? null,
    connections: scenario.connections,
    pipeline: scenario.pipeline,
    requests: figures.requests,
    qps: figures.qps,
    avgLatencyMs: figures.avgLatencyMs,
    p50LatencyMs: figures.p50LatencyMs,
    p99LatencyMs: figures.p99LatencyMs,
    p999LatencyMs: figures.p999LatencyMs,
    errors: figures.errors,
    engineVersion: against.version,
    instanceType: row.instanceType,
    server: against.server,
    startedAt: all[0]!.startedAt,
    finishedAt: all.at(-1)!.finishedAt,
    report,
  });
}
