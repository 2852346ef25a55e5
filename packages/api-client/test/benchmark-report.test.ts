import { describe, expect, it } from 'vitest';
import { benchResultSection, renderBenchmarkReport, reportHeadline, typeReportDocumentOf, type Schemas } from '../src/index.js';
import { chartRowsOf, qpsByValueSizeAndPipeline } from '../src/rules.js';

type Scenario = Schemas['BenchmarkDto']['scenarios'][number];

const scenario = (over: Partial<Scenario>): Scenario => ({
  position: 1,
  name: 'write-only 128 B, ping-pong',
  server: 'basalt',
  tool: 'basalt-bench 0.1.0',
  command_line: "basalt-bench --server=10.77.0.2 --port=6379 '--authenticate=default:<password>' --ratio=1:0 --timeout=10",
  memtier_command: "memtier_benchmark --server=10.77.0.2 --port=6379 '--authenticate=default:<password>' --ratio=1:0",
  ycsb_command: null,
  workload: 'write-only',
  value_size: 128,
  connections: 8,
  pipeline: 1,
  requests: 20000,
  qps: 30000,
  avg_latency_ms: 0.25,
  p50_latency_ms: 0.2,
  p99_latency_ms: 1.5,
  p999_latency_ms: 3,
  errors: 0,
  engine_version: '0.1.0',
  instance_type: 'kv.standard.small',
  started_at: '2026-11-23T22:00:00Z',
  finished_at: '2026-11-23T22:00:01Z',
  encryption: null,
  round_ops_per_sec: null,
  ...over,
});

const run = (workload: string, scenarios: Scenario[], results: Record<string, unknown>): Schemas['BenchmarkDto'] => ({
  id: '00000000-0000-4000-8000-000000000001',
  instance_id: null,
  instance_type: 'kv.standard.small',
  status: 'succeeded',
  tool: 'basalt-bench',
  workload,
  parameters: {},
  results,
  scenarios,
  operation_id: null,
  created_at: '2026-11-23T22:00:00Z',
  started_at: '2026-11-23T22:00:00Z',
  finished_at: '2026-11-23T22:01:00Z',
  cancel_requested_at: null,
});

const meta = { instanceType: 'kv.standard.small', typeSize: '1 vCPU, 2 GiB', measuredAt: '2026-11-23T22:00:00.000Z', host: 'Test CPU, 2 cores', load: 'load 3.1', commit: 'abc1234' };
/** The report of stored runs, as the worker makes it: runs -> document -> markdown. */
const render = (runs: Schemas['BenchmarkDto'][]) => renderBenchmarkReport(typeReportDocumentOf(meta, runs));
const headline = (runs: Schemas['BenchmarkDto'][]) => reportHeadline(typeReportDocumentOf(meta, runs).runs);

describe('renderBenchmarkReport', () => {
  const memtier = run(
    'memtier-standard',
    [
      scenario({}),
      scenario({ server: 'redis', engine_version: 'Redis 7.0.15', qps: 40000, p99_latency_ms: 1.1 }),
      scenario({ position: 2, name: 'mixed 1:1 128 B, pipeline 32', pipeline: 32, qps: 300000 }),
      scenario({ position: 2, name: 'mixed 1:1 128 B, pipeline 32', pipeline: 32, server: 'redis', engine_version: 'Redis 7.0.15', qps: 200000 }),
    ],
    { scaling: ['8 connections'], peer: { placement: 'Redis in a namespace' }, client: { address: '10.77.0.9' } },
  );
  const ycsb = run(
    'ycsb-standard',
    [
      scenario({ name: 'memory:data 7:1, uniform read', workload: 'uniform-read', qps: 20000, p99_latency_ms: 2, report: { 'engine counters': { cold_reads: 0 } }, memtier_command: null, ycsb_command: './bin/ycsb run redis -s' }),
      scenario({ position: 2, name: 'memory:data 1:4, uniform read', workload: 'uniform-read', qps: 5000, requests: 1562, p99_latency_ms: 8, report: { 'engine counters': { cold_reads: 1500 } }, memtier_command: null, ycsb_command: './bin/ycsb run redis -s' }),
    ],
    { scaling: ['50000 records'], peer_skipped: [{ name: 'memory:data 1:4, uniform read', why: 'Redis keeps every value in memory' }] },
  );
  const text = render([memtier, ycsb]);

  it('puts Basalt beside its peer in the papers’ table shape', () => {
    expect(text).toContain('# Basalt benchmark report: kv.standard.small');
    expect(text).toContain('| Scenario | Value | Conns | Pipeline | Basalt ops/s | Redis 7.0.15 ops/s | Basalt / peer |');
    expect(text).toContain('| write-only 128 B, ping-pong | 128 B | 8 | 1 | 30,000 | 40,000 | 0.75× | 0.25 | 1.50 | 3.00 | 1.10 |');
    expect(text).toContain('| mixed 1:1 128 B, pipeline 32 | 128 B | 8 | 32 | 300,000 | 200,000 | 1.50× |');
    expect(text).toContain('No peer figure for memory:data 1:4, uniform read: Redis keeps every value in memory.');
  });

  it('computes its conclusions from the figures', () => {
    // geometric mean of 0.75 and 1.5
    expect(text).toContain("memtier-standard: Basalt's throughput was 1.06× Redis 7.0.15's (geometric mean of 2 scenarios), from 0.75× (write-only 128 B, ping-pong) to 1.50× (mixed 1:1 128 B, pipeline 32).");
    expect(text).toContain('ycsb-standard uniform-read: with the data 4× the memory Basalt served 5,000 ops/s (25% of the 20,000 ops/s with the data in memory), p99 8.00 ms against 2.00 ms; 1,500 of its 1,562 operations read a value from disk.');
  });

  it('gives every command to rerun, with memtier_benchmark and YCSB', () => {
    expect(text).toContain(memtier.scenarios[0]!.memtier_command!);
    expect(text).toContain('./bin/ycsb run redis -s');
    expect(text).toContain('Measured 2026-11-23');
    expect(text).toContain('Load: load 3.1.');
  });

  it('says when each command runs several times and its figure is their aggregate', () => {
    expect(text).not.toContain('AGGREGATED AVERAGE');
    const repeated = run('memtier-standard', [scenario({ command_line: `${scenario({}).command_line} --test-time=4 --run-count=3` })], {});
    expect(render([repeated])).toContain('each command runs 3 times and its figure is the aggregate both tools print last (`AGGREGATED AVERAGE RESULTS (3 runs)`)');
  });

  it('says when each command ran in rounds and its figure is the median round', () => {
    expect(text).not.toContain('median round');
    const rounds = [1, 2, 3].map((round) => ({ round, 'Ops/sec': 100 * round }));
    const inRounds = run('memtier-standard', [scenario({ report: { 'ALL STATS': {}, rounds } })], {});
    expect(render([inRounds])).toContain('each command ran once in each of 3 rounds (the whole list once per round, each command against Basalt, then the peer) and its figure is the median round');
  });
});

describe('benchResultSection', () => {
  it("is ALL STATS for one run, the aggregate for several, and undefined without figures", () => {
    expect(benchResultSection({ 'ALL STATS': { Totals: { Count: 1 } } })).toEqual({ Totals: { Count: 1 } });
    expect(benchResultSection({ 'BEST RUN RESULTS': { Totals: { Count: 2 } }, 'AGGREGATED AVERAGE RESULTS (3 runs)': { Totals: { Count: 6 } } })).toEqual({ Totals: { Count: 6 } });
    expect(benchResultSection({ 'run information': {} })).toBeUndefined();
  });
});

describe('reportHeadline', () => {
  it("takes the catalog's figures from memtier-standard's 128 B ping-pong rows and the median peer ratio", () => {
    const memtier = run(
      'memtier-standard',
      [
        scenario({}),
        scenario({ server: 'redis', engine_version: 'Redis 7.0.15', qps: 40000 }),
        scenario({ position: 2, name: 'read-only 128 B, ping-pong', workload: 'read-only', qps: 50000, p99_latency_ms: 0.9 }),
        scenario({ position: 2, name: 'read-only 128 B, ping-pong', workload: 'read-only', server: 'redis', engine_version: 'Redis 7.0.15', qps: 25000 }),
        scenario({ position: 3, name: 'read-only 4 KB, ping-pong', workload: 'read-only', value_size: 4096, qps: 10000 }),
        scenario({ position: 3, name: 'read-only 4 KB, ping-pong', workload: 'read-only', value_size: 4096, server: 'redis', engine_version: 'Redis 7.0.15', qps: 10000 }),
      ],
      {},
    );
    // Ratios 0.75, 2, 1: the median is 1.
    expect(headline([memtier])).toEqual({ reads_per_sec: 50000, writes_per_sec: 30000, p99_latency_ms: 0.9, peer_ratio: 1 });
  });

  it('has no figure where the runs have no such scenario', () => {
    expect(headline([run('canonical', [scenario({ workload: 'canonical', name: 'canonical' })], {})])).toEqual({ reads_per_sec: null, writes_per_sec: null, p99_latency_ms: null, peer_ratio: null });
  });
});

describe('renderBenchmarkReport: encryption-overhead', () => {
  const variant = (tls: boolean, at_rest: boolean) => ({ encryption: { tls, at_rest } });
  const encryption = run(
    'encryption-overhead',
    [
      scenario({ position: 1, name: 'mixed 1:1 128 B, ping-pong: no encryption', workload: 'mixed-1:1', qps: 20000, ...variant(false, false) }),
      scenario({ position: 2, name: 'mixed 1:1 128 B, ping-pong: TLS', workload: 'mixed-1:1', qps: 15000, ...variant(true, false) }),
      scenario({ position: 3, name: 'mixed 1:1 128 B, ping-pong: encryption at rest', workload: 'mixed-1:1', qps: 20400, ...variant(false, true) }),
      scenario({ position: 4, name: 'mixed 1:1 128 B, ping-pong: TLS and encryption at rest', workload: 'mixed-1:1', qps: 14000, ...variant(true, true) }),
    ],
    { scaling: ['8 connections, each scenario against a fresh engine'], peer: null, peer_note: null, engines: { placement: 'basalt-server in a network namespace of its own' }, client: { address: '10.77.0.9' } },
  );

  it("PolarDB's table shape, overheads of the medians computed from the rows, the engines' placement said", () => {
    const text = render([encryption]);
    expect(text).toContain('| Value | Encryption | Conns | Runs | Without encryption ops/s | With it ops/s | Lowest–highest run | Overhead | p99 ms |');
    expect(text).toContain('| 128 B | no encryption | 8 | 1 | 20,000 | 20,000 | 20,000–20,000 | — | 1.50 |');
    expect(text).toContain('| 128 B | TLS | 8 | 1 | 20,000 | 15,000 | 15,000–15,000 | +25.0% | 1.50 |');
    expect(text).toContain('| 128 B | encryption at rest | 8 | 1 | 20,000 | 20,400 | 20,400–20,400 | −2.0% | 1.50 |');
    expect(text).toContain('| 128 B | TLS and encryption at rest | 8 | 1 | 20,000 | 14,000 | 14,000–14,000 | +30.0% | 1.50 |');
    expect(text).toContain('ops/s are the medians of each variant\'s runs');
    expect(text).toContain('- encryption-overhead, TLS: 25.0% less throughput at 128 B (median 15,000 against 20,000 ops/s) than the same engine without encryption, medians of 1 runs each on this shared host.');
    expect(text).toContain('- encryption-overhead, encryption at rest: 2.0% more throughput at 128 B (median 20,400 against 20,000 ops/s) than');
    expect(text).toContain('- encryption-overhead engines (one per scenario, started and removed by the run): basalt-server in a network namespace of its own.');
    expect(text).toContain("These engines are not the report's instance");
    expect(text).toContain("the server is the scenario's own basalt-server, not the instance: to rerun one, start basalt-server with `requirepass`");
    expect(headline([encryption]).peer_ratio).toBeNull();
  });

  it('says when an overhead is within the spread of the runs', () => {
    const rounds = run(
      'encryption-overhead',
      [
        [false, false, 20000], [true, false, 19000], [false, true, 15000], [true, true, 14000],
        [false, false, 16000], [true, false, 19500], [false, true, 15500], [true, true, 14500],
        [false, false, 21000], [true, false, 18500], [false, true, 14500], [true, true, 13500],
      ].map(([tls, at_rest, qps], i) => scenario({ position: i + 1, name: `run ${i + 1}`, workload: 'mixed-1:1', qps: qps as number, encryption: { tls: tls as boolean, at_rest: at_rest as boolean } })),
      { scaling: [], peer: null },
    );
    const text = render([rounds]);
    // Baseline runs 16 000-21 000 (median 20 000): TLS's 5% is inside that spread, at rest's 25% is not.
    expect(text).toContain('- encryption-overhead, TLS: 5.0% less throughput at 128 B (median 19,000 against 20,000 ops/s; within the spread of the runs, so not a measured difference) than');
    expect(text).toContain('- encryption-overhead, encryption at rest: 25.0% less throughput at 128 B (median 15,000 against 20,000 ops/s) than');
    expect(text).toContain('| 128 B | no encryption | 8 | 3 | 20,000 | 20,000 | 16,000–21,000 | — | 1.50 |');
  });

  it('reads a variant measured in rounds from its one row: every round a run, the row the median round', () => {
    const rounds = run(
      'encryption-overhead',
      [
        [false, false, [20000, 16000, 21000]], [true, false, [19000, 19500, 18500]],
        [false, true, [15000, 15500, 14500]], [true, true, [14000, 14500, 13500]],
      ].map(([tls, at_rest, ops], i) => {
        const round_ops_per_sec = ops as number[];
        const qps = [...round_ops_per_sec].sort((a, b) => a - b)[1]!;
        return scenario({ position: i + 1, name: `variant ${i + 1}`, workload: 'mixed-1:1', qps, round_ops_per_sec, encryption: { tls: tls as boolean, at_rest: at_rest as boolean } });
      }),
      { scaling: [], peer: null },
    );
    const text = render([rounds]);
    expect(text).toContain('| 128 B | no encryption | 8 | 3 | 20,000 | 20,000 | 16,000–21,000 | — | 1.50 |');
    expect(text).toContain('| 128 B | encryption at rest | 8 | 3 | 20,000 | 15,000 | 14,500–15,500 | +25.0% | 1.50 |');
    expect(text).toContain('- encryption-overhead, TLS: 5.0% less throughput at 128 B (median 19,000 against 20,000 ops/s; within the spread of the runs, so not a measured difference) than the same engine without encryption, medians of 3 runs each');
  });
});

// The papers' whole tables (issue 46): their method lines, the peer's average latency, and
// memtier-matrix's two connection levels as two chart series.
describe('the table suites in a report', () => {
  const cell = (position: number, size: number, connections: number, server: 'basalt' | 'redis', qps: number) =>
    scenario({ position, name: `write-only ${size} B, ping-pong, ${connections} conns`, value_size: size, connections, server, qps, avg_latency_ms: server === 'redis' ? 0.61 : 0.25, ...(server === 'redis' ? { engine_version: 'Redis 7.0.15' } : {}) });
  const matrix = run('memtier-matrix', [cell(1, 128, 8, 'basalt', 30000), cell(1, 128, 8, 'redis', 28000), cell(2, 128, 32, 'basalt', 50000), cell(2, 128, 32, 'redis', 45000), cell(3, 1024, 8, 'basalt', 25000), cell(4, 1024, 32, 'basalt', 40000)], { scaling: ['two connection levels, 8 and 32'] });

  it('describes the suites that ran, and only those', () => {
    const text = render([matrix]);
    expect(text).toContain("- **memtier-matrix** is PolarDB Orca's memtier_benchmark matrix");
    expect(text).not.toContain('**canonical-tables**');
    const older = render([run('memtier-standard', [scenario({})], {})]);
    expect(older).not.toContain('memtier-matrix');
    expect(older).not.toContain('Peer avg ms');
  });

  it("shows the peer's average latency beside Basalt's", () => {
    const text = render([matrix]);
    expect(text).toContain('| Basalt p99.9 ms | Peer avg ms | Peer p99 ms |');
    expect(text).toContain('| write-only 128 B, ping-pong, 8 conns | 128 B | 8 | 1 | 30,000 | 28,000 | 1.07× | 0.25 | 1.50 | 3.00 | 0.61 | 1.50 |');
  });

  it('charts two connection levels as two series', () => {
    const doc = typeReportDocumentOf(meta, [matrix]);
    const chart = qpsByValueSizeAndPipeline(chartRowsOf(doc.runs[0]!.scenarios))!;
    expect(chart.series.map((s) => s.name)).toEqual(['write-only, ping-pong, 8 conns', 'write-only, ping-pong, 32 conns']);
    expect(chart.data).toEqual([
      { label: '128 B', s0: 30000, s1: 50000 },
      { label: '1 KB', s0: 25000, s1: 40000 },
    ]);
  });
});
