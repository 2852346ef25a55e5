// A per-type benchmark report as markdown, laid out like the white papers Basalt follows
// (method, environment, scaling, result tables, every command line) from the report's document
// (type-report-document.ts): each table reads "Basalt | peer | ratio", the peer measured in the
// same run on the same VM size. Every figure and every sentence of the conclusions is computed
// from the document; nothing is written by hand.
import { encryptionOverhead, type EncryptionOverheadRow } from './benchmark-encryption.js';
import { showsPeerAverage, tableSuiteMethods } from './benchmark-suite-methods.js';
import type { ReportRun, ReportScenario, TypeReportDocument } from './type-report-document.js';

type Benchmark = ReportRun;
type Scenario = ReportScenario;

/** A chart drawn beside a suite's table (docs/benchmarks: an SVG file next to the markdown). */
export interface ReportChartLink {
  title: string;
  file: string;
}

export interface ReportRenderOptions {
  /** The charts to link under each suite's table, by the run's index; none when absent (the API's report.md). */
  charts?: (run: ReportRun, index: number) => ReportChartLink[];
}

const fmt = (n: number | null | undefined, digits = 0) => (n === null || n === undefined || !Number.isFinite(n) ? '—' : n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits }));
const ms = (n: number | null | undefined) => fmt(n, 2);
const valueLabel = (bytes: number | null) => (bytes === null ? 'varies' : bytes >= 1024 ? `${bytes / 1024} KB` : `${bytes} B`);

interface Pair {
  basalt: Scenario;
  peer: Scenario | undefined;
}

function pairs(run: Benchmark): Pair[] {
  const peers = new Map(run.scenarios.filter((s) => s.server !== 'basalt').map((s) => [s.position, s]));
  return run.scenarios.filter((s) => s.server === 'basalt').map((basalt) => ({ basalt, peer: peers.get(basalt.position) }));
}

const coldReads = (s: Scenario) => s.cold_reads ?? undefined;

function table(run: Benchmark): string {
  const rows = pairs(run);
  const peerName = rows.find((r) => r.peer)?.peer?.engine_version ?? 'peer';
  const withCold = rows.some((r) => coldReads(r.basalt) !== undefined);
  const peerAvg = showsPeerAverage(run.workload);
  const head = ['Scenario', 'Value', 'Conns', 'Pipeline', 'Basalt ops/s', `${peerName} ops/s`, 'Basalt / peer', 'Basalt avg ms', 'Basalt p99 ms', 'Basalt p99.9 ms', ...(peerAvg ? ['Peer avg ms'] : []), 'Peer p99 ms', ...(withCold ? ['Cold reads'] : [])];
  const lines = [`| ${head.join(' | ')} |`, `|${head.map((_, i) => (i === 0 ? '---' : '---:')).join('|')}|`];
  for (const { basalt: b, peer: p } of rows) {
    lines.push(
      `| ${[
        b.name,
        valueLabel(b.value_size),
        fmt(b.connections),
        fmt(b.pipeline),
        fmt(b.qps),
        p ? fmt(p.qps) : '—',
        p && p.qps > 0 ? `${fmt(b.qps / p.qps, 2)}×` : '—',
        ms(b.avg_latency_ms),
        ms(b.p99_latency_ms),
        ms(b.p999_latency_ms),
        ...(peerAvg ? [p ? ms(p.avg_latency_ms) : '—'] : []),
        p ? ms(p.p99_latency_ms) : '—',
        ...(withCold ? [fmt(coldReads(b))] : []),
      ].join(' | ')} |`,
    );
  }
  return lines.join('\n');
}

const percent = (n: number | null) => (n === null ? '—' : `${n >= 0 ? '+' : '−'}${fmt(Math.abs(n), 1)}%`);

/**
 * encryption-overhead in the shape of PolarDB's encryption-overhead table: per value size, the
 * throughput without encryption, with each encryption, and the overhead between the two.
 */
function encryptionTable(run: Benchmark): string {
  const head = ['Value', 'Encryption', 'Conns', 'Runs', 'Without encryption ops/s', 'With it ops/s', 'Lowest–highest run', 'Overhead', 'p99 ms'];
  const lines = [`| ${head.join(' | ')} |`, `|${head.map((_, i) => (i < 2 ? '---' : '---:')).join('|')}|`];
  for (const row of encryptionOverhead(run.scenarios)) {
    const encrypted = row.variant.tls || row.variant.at_rest;
    lines.push(
      `| ${[valueLabel(row.valueSize), row.label, fmt(row.scenarios[0]!.connections), fmt(row.runs), fmt(row.baselineQps), fmt(row.qps), `${fmt(row.minQps)}–${fmt(row.maxQps)}`, encrypted ? percent(row.overheadPercent) : '—', ms(row.p99LatencyMs)].join(' | ')} |`,
    );
  }
  lines.push('', 'ops/s are the medians of each variant\'s runs (the four variants of both sizes once per round, a fresh engine each run) and p99 is the median run\'s; the overhead is of the medians.');
  return lines.join('\n');
}

/**
 * Whether an overhead is smaller than the run-to-run spread of the variant or of its baseline
 * (highest − lowest run, as % of the baseline's median): then the runs do not tell it from noise.
 */
function withinSpread(row: EncryptionOverheadRow, table: EncryptionOverheadRow[]): boolean {
  const baseline = table.find((b) => b.valueSize === row.valueSize && !b.variant.tls && !b.variant.at_rest);
  if (!row.baselineQps || row.overheadPercent === null) return true;
  const spread = (r: { minQps: number; maxQps: number }) => ((r.maxQps - r.minQps) / row.baselineQps!) * 100;
  return Math.abs(row.overheadPercent) < Math.max(spread(row), baseline ? spread(baseline) : 0);
}

/** Per encryption, its overhead at each value size, from the table's figures. */
function encryptionConclusions(run: Benchmark): string[] {
  const table = encryptionOverhead(run.scenarios);
  const rows = table.filter((r) => (r.variant.tls || r.variant.at_rest) && r.overheadPercent !== null);
  const labels = [...new Set(rows.map((r) => r.label))];
  return labels.map((label) => {
    const mine = rows.filter((r) => r.label === label);
    const parts = mine.map((r) => {
      const change = `${r.overheadPercent! >= 0 ? `${fmt(r.overheadPercent, 1)}% less` : `${fmt(-r.overheadPercent!, 1)}% more`} throughput at ${valueLabel(r.valueSize)} (median ${fmt(r.qps)} against ${fmt(r.baselineQps)} ops/s`;
      return withinSpread(r, table) ? `${change}; within the spread of the runs, so not a measured difference)` : `${change})`;
    });
    return `encryption-overhead, ${label}: ${parts.join(', ')} than the same engine without encryption, medians of ${mine[0]!.runs} runs each on this shared host.`;
  });
}

const geomean = (xs: number[]) => Math.exp(xs.reduce((a, x) => a + Math.log(x), 0) / xs.length);

/** Sentences computed from the figures: ratio range and mean per suite, the cost of data on disk. */
function conclusions(runs: Benchmark[]): string[] {
  const out: string[] = [];
  for (const run of runs) {
    const ratios = pairs(run).flatMap(({ basalt, peer }) => (peer && peer.qps > 0 ? [{ name: basalt.name, r: basalt.qps / peer.qps }] : []));
    if (ratios.length) {
      const low = ratios.reduce((a, b) => (b.r < a.r ? b : a));
      const high = ratios.reduce((a, b) => (b.r > a.r ? b : a));
      const peer = pairs(run).find((p) => p.peer)?.peer?.engine_version ?? 'the peer';
      out.push(
        `${run.workload}: Basalt's throughput was ${fmt(geomean(ratios.map((x) => x.r)), 2)}× ${peer}'s (geometric mean of ${ratios.length} scenarios), from ${fmt(low.r, 2)}× (${low.name}) to ${fmt(high.r, 2)}× (${high.name}).`,
      );
    }
    if (run.workload === 'encryption-overhead') out.push(...encryptionConclusions(run));
    if (run.workload === 'ycsb-standard') {
      const by = (label: string, workload: string) => run.scenarios.find((s) => s.server === 'basalt' && s.name.startsWith(label) && s.workload === workload);
      for (const workload of ['uniform-read', 'zipfian-read', 'uniform-read-update']) {
        const inMemory = by('memory:data 7:1', workload);
        const onDisk = by('memory:data 1:4', workload);
        if (!inMemory || !onDisk) continue;
        const cold = coldReads(onDisk);
        out.push(
          `ycsb-standard ${workload}: with the data 4× the memory Basalt served ${fmt(onDisk.qps)} ops/s (${fmt((onDisk.qps / inMemory.qps) * 100)}% of the ${fmt(inMemory.qps)} ops/s with the data in memory), p99 ${ms(onDisk.p99_latency_ms)} ms against ${ms(inMemory.p99_latency_ms)} ms; ${fmt(cold)} of its ${fmt(onDisk.requests)} operations read a value from disk.`,
        );
      }
    }
  }
  return out;
}

function commands(runs: Benchmark[]): string {
  const blocks: string[] = [];
  for (const run of runs) {
    const mine = run.scenarios.filter((s) => s.server === 'basalt');
    const against =
      run.workload === 'encryption-overhead'
        ? "; the server is the scenario's own basalt-server, not the instance: to rerun one, start basalt-server with `requirepass`, and for TLS `tls-port = 6380`, `tls-cert-file`, `tls-key-file`, `plaintext = \"no\"` (ca.pem is the CA that signed its certificate), for encryption at rest `encryption-key-file` (32 random bytes)"
        : '';
    // The job waits out the servers' own background work before each scenario (the worker's server-quiet.ts): a rerun should too.
    const quiet = run.workload === 'encryption-overhead' ? '' : '; before each command the worker waited until `INFO persistence` showed no background work (`wal_compaction_pending:0`; for Redis `aof_rewrite_in_progress:0`): wait the same way when you rerun them';
    // With --run-count the stored figure is the aggregate the tools print last, not one run's.
    const repeated = Number(/--run-count=(\d+)/.exec(mine[0]?.command_line ?? '')?.[1] ?? 1);
    const aggregate = repeated > 1 ? `; each command runs ${repeated} times and its figure is the aggregate both tools print last (\`AGGREGATED AVERAGE RESULTS (${repeated} runs)\`)` : '';
    // Measured in rounds (the worker's benchmark/rounds.ts), the stored figure is the median round's.
    const rounds = mine[0]?.rounds ?? 1;
    const median = rounds > 1 ? `; each command ran once in each of ${rounds} rounds (the whole list once per round, each command against Basalt, then the peer) and its figure is the median round's: run the list ${rounds} times and take each command's median` : '';
    blocks.push(`### ${run.workload}\n\nbasalt-bench, as the worker ran them (the client in its own network namespace on the bridge; the password shown as \`<password>\`${against}${quiet}${aggregate}${median}):\n\n\`\`\`sh\n${mine.flatMap((s) => (s.command_line ? [s.command_line] : [])).join('\n')}\n\`\`\``);
    const memtier = mine.flatMap((s) => (s.memtier_command ? [s.memtier_command] : []));
    if (memtier.length) blocks.push(`The same with memtier_benchmark:\n\n\`\`\`sh\n${memtier.join('\n')}\n\`\`\``);
    const ycsb = mine.flatMap((s) => (s.ycsb_command ? [s.ycsb_command] : []));
    if (ycsb.length) {
      blocks.push(
        `The same with YCSB (the Tair paper's modified YCSB for \`redis.command_group=string\`; before each memory:data group set \`CONFIG SET maxmemory\` to the figure in the table's scaling note):\n\n\`\`\`sh\n${ycsb.join('\n')}\n\`\`\``,
      );
    }
  }
  return blocks.join('\n\n');
}

export function renderBenchmarkReport(doc: TypeReportDocument, options: ReportRenderOptions = {}): string {
  const runs = doc.runs;
  const env = { instanceType: doc.instance_type, typeSize: doc.type_size, date: doc.measured_at, host: doc.host, load: doc.load, commit: doc.commit };
  const engine = runs.flatMap((r) => r.scenarios).find((s) => s.server === 'basalt')?.engine_version ?? '?';
  const tool = runs.flatMap((r) => r.scenarios).find((s) => s.server === 'basalt')?.tool ?? 'basalt-bench';
  const results = runs.map((r) => r.results);
  const sections = [
    `# Basalt benchmark report: ${env.instanceType}`,
    `Measured ${env.date.slice(0, 10)} (${env.date}) by Basalt's own benchmark pipeline on one fresh instance of \`${env.instanceType}\` (${env.typeSize}), engine basalt-server ${engine}${env.commit ? ` (commit ${env.commit})` : ''}, client ${tool}. Every figure below is Basalt's, measured on this machine; each table puts beside it a peer measured in the same run on the same VM size.`,
    ...(doc.provenance_note ? [`Provenance of this document: ${doc.provenance_note}`] : []),
    `## Method`,
    [
      '- **memtier-standard** follows the PolarDB/Tair memtier_benchmark matrix (value sizes, ping-pong and `--pipeline=32`, write-only, read-only after a load, mixed 1:1), shortened to what this host measures in seconds.',
      "- **ycsb-standard** follows the Tair ESSD white paper's YCSB tables: load, uniform read (workload c), zipfian read (workload c), uniform 50% read 50% update (workload a), 1 field of 100 B, string commands, data in memory (memory:data ≈ 7:1) and data larger than memory (≈ 1:4); every run is of as many operations as records (the paper's records / 32 at 1:4 would be a run of a few hundredths of a second at this scale). The ratio is made by setting the engine's cache bound (maxmemory) to 7× and 1/4 of its data after the load. The engine's cold reads (values read back from disk) are counted by the engine itself (INFO cache misses).",
      "- **canonical** follows RethinkDB's canonical workload over the memcached protocol: 1 delete per 4 updates per 8 inserts per 64 reads, reads batched 1–16 keys per get, keys 8–16 B, values 8–128 B, many connections, after a load of the key set.",
      "- **encryption-overhead** follows PolarDB's encryption-overhead table: memtier's mixed 1:1 workload (ping-pong) against Basalt's engine without encryption, with TLS (clients on the TLS port, plaintext off), with encryption at rest (AES-256-GCM of every key and value written to disk, a random 32-byte key), and with both; the overhead is each one's lost throughput against the engine without encryption at the same value size. These engines are not the report's instance: each scenario starts a fresh engine of the same build, placed and sized like the instance's VM (see Environment).",
      ...tableSuiteMethods(runs.map((r) => r.workload)),
      '- **State**: each suite starts on an empty engine (the pipeline empties the temporary instance with FLUSHALL before it), the state a rerun of its commands on a fresh instance starts from.',
      '- **Peer**: Redis 7 from Debian (AOF, the instance\'s fsync policy) for memtier and YCSB, memcached from Debian for canonical, measured scenario by scenario in the same run, placed and sized like the instance\'s VM. No peer figure where the peer cannot hold the data (YCSB at 1:4: Redis keeps every value in memory).',
    ].join('\n'),
    `## Environment`,
    [
      `- Host: ${env.host}.`,
      `- Load: ${env.load}.`,
      `- Instance: a local VM (systemd-nspawn container with its own network namespace on bridge basalt0 and a cgroup of ${env.typeSize}).`,
      `- Client: basalt-bench in a network namespace of its own on the same bridge (address ${results[0]?.client?.address ?? '?'} from the region's pool), sharing the host's cores with the instance, the peer and everyone else's work: figures are for this shared host, not for dedicated hardware.`,
      ...[...new Set(results.map((r) => r.peer?.placement ?? r.peer_note).filter((x): x is string => !!x))].map((p) => `- Peer: ${p}.`),
      ...results.flatMap((r) => (r.engines?.placement ? [`- encryption-overhead engines (one per scenario, started and removed by the run): ${r.engines.placement}.`] : [])),
    ].join('\n'),
    `## Scaling`,
    runs.map((r, i) => `- ${r.workload}: ${(results[i]?.scaling ?? []).join('; ') || 'as in the suite'}.`).join('\n'),
    `## Results`,
    ...runs.map((r, i) => {
      const skipped = results[i]?.peer_skipped ?? [];
      const note = skipped.length ? `\n\nNo peer figure for ${skipped.map((s) => s.name).join(', ')}: ${skipped[0]!.why}.` : '';
      const charts = (options.charts?.(r, i) ?? []).map((c) => `![${c.title}](${c.file})`);
      return `### ${r.workload}\n\n${r.workload === 'encryption-overhead' ? encryptionTable(r) : table(r)}${note}${charts.length ? `\n\n${charts.join('\n')}` : ''}`;
    }),
    `## Conclusions (computed from the tables)`,
    conclusions(runs).map((c) => `- ${c}`).join('\n') || '- No scenario had a peer figure.',
    `## Commands to rerun`,
    commands(runs),
  ];
  return `${sections.join('\n\n')}\n`;
}

/** The figures a report puts in the catalog, computed from its runs (InstanceTypeReport.headline). */
export interface ReportHeadlineFigures {
  reads_per_sec: number | null;
  writes_per_sec: number | null;
  p99_latency_ms: number | null;
  peer_ratio: number | null;
}

/**
 * memtier-standard's read-only and write-only 128 B ping-pong scenarios on Basalt (reads/s,
 * writes/s, the read's p99), and the median Basalt/peer throughput ratio over every scenario
 * with a peer figure. Null where the runs have no such scenario.
 */
export function reportHeadline(runs: Benchmark[]): ReportHeadlineFigures {
  const memtier = runs.find((r) => r.workload === 'memtier-standard');
  const find = (workload: string) => memtier?.scenarios.find((s) => s.server === 'basalt' && s.workload === workload && s.value_size === 128 && s.pipeline === 1);
  const read = find('read-only');
  const write = find('write-only');
  const ratios = runs
    .flatMap((run) => pairs(run))
    .flatMap(({ basalt, peer }) => (peer && peer.qps > 0 ? [basalt.qps / peer.qps] : []))
    .sort((a, b) => a - b);
  const middle = Math.floor(ratios.length / 2);
  const median = ratios.length === 0 ? null : ratios.length % 2 ? ratios[middle]! : (ratios[middle - 1]! + ratios[middle]!) / 2;
  return {
    reads_per_sec: read ? read.qps : null,
    writes_per_sec: write ? write.qps : null,
    p99_latency_ms: read?.p99_latency_ms ?? null,
    peer_ratio: median,
  };
}
