// What the benchmark charts plot: one source for the console's charts (recharts draws them) and
// the SVG files beside the committed reports (benchmark-report-svg.ts draws them), shaped from a
// run's scenarios, never recomputed. Pure TypeScript (runs in the browser too).
import { ENCRYPTION_VARIANTS, encryptionOverhead, encryptionVariantLabel, type EncryptionScenario } from './benchmark-encryption.js';

/** A scenario's figures a chart reads: a stored run's (BenchmarkScenarioDto) or a report document's. */
export interface ChartScenario extends EncryptionScenario {
  position: number;
  workload: string;
  pipeline: number;
  engine_version: string;
  /** Connections of the run (memtier-matrix has two levels per value size and workload). */
  connections?: number;
}

/** One scenario measured on Basalt, with the peer's figures beside it when the peer ran it too. */
export interface ChartRow {
  label: string;
  workload: string;
  valueSize: number | null;
  pipeline: number;
  connections?: number;
  opsPerSec: number;
  p99Ms: number | null;
  peer: { version: string; opsPerSec: number; p99Ms: number | null } | null;
}

/** One bar series: its key in each datum and the name the legend and tooltip show. */
export interface ChartSeries {
  key: string;
  name: string;
}

/** Bars grouped by `label` (the x axis), one bar per series; null where a series has no figure. */
export interface BarChartData {
  data: ({ label: string } & Record<string, string | number | null>)[];
  series: ChartSeries[];
}

/** Basalt first in the brand colour, a peer in grey, other series after them in the palette. */
const COLOURS: Record<string, string> = { basalt: '#0e7c66', peer: '#9aa4b2' };
const PALETTE = ['#0e7c66', '#3b82f6', '#d97706', '#9aa4b2', '#7c3aed', '#db2777'];

export function seriesColour(key: string, index: number): string {
  return COLOURS[key] ?? PALETTE[index % PALETTE.length]!;
}

/** Basalt's rows of a run, each with its peer's figures (the same position). */
export function chartRowsOf(scenarios: readonly ChartScenario[]): ChartRow[] {
  const peers = new Map(scenarios.filter((s) => s.server !== 'basalt').map((s) => [s.position, s]));
  return scenarios
    .filter((s) => s.server === 'basalt')
    .map((s) => {
      const peer = peers.get(s.position);
      return {
        label: s.name,
        workload: s.workload,
        valueSize: s.value_size,
        pipeline: s.pipeline,
        connections: s.connections,
        opsPerSec: s.qps,
        p99Ms: s.p99_latency_ms,
        peer: peer ? { version: peer.engine_version, opsPerSec: peer.qps, p99Ms: peer.p99_latency_ms } : null,
      };
    });
}

const METRIC = {
  ops: { basalt: (r: ChartRow) => r.opsPerSec, peer: (p: NonNullable<ChartRow['peer']>) => p.opsPerSec },
  p99: { basalt: (r: ChartRow) => r.p99Ms, peer: (p: NonNullable<ChartRow['peer']>) => p.p99Ms },
} as const;

/** Per scenario, Basalt and beside it the run's peer (where the peer ran that scenario). */
export function basaltVsPeer(rows: ChartRow[], metric: keyof typeof METRIC): BarChartData {
  const pick = METRIC[metric];
  const peerName = rows.find((r) => r.peer)?.peer?.version;
  return {
    data: rows.map((r) => ({ label: r.label, basalt: pick.basalt(r), peer: r.peer ? pick.peer(r.peer) : null })),
    series: [{ key: 'basalt', name: 'Basalt' }, ...(peerName ? [{ key: 'peer', name: peerName }] : [])],
  };
}

export function formatValueSize(bytes: number): string {
  return bytes >= 1024 && bytes % 1024 === 0 ? `${bytes / 1024} KB` : `${bytes} B`;
}

const depth = (pipeline: number) => (pipeline === 1 ? 'ping-pong' : `pipeline ${pipeline}`);

/**
 * Basalt's ops/s per value size (the x axis), one bar per workload at its pipeline depth: the
 * papers' memtier matrix. Null for a run with fewer than two fixed value sizes (nothing to compare).
 */
export function qpsByValueSizeAndPipeline(rows: ChartRow[]): BarChartData | null {
  const sized = rows.filter((r): r is ChartRow & { valueSize: number } => r.valueSize !== null);
  const sizes = [...new Set(sized.map((r) => r.valueSize))].sort((a, b) => a - b);
  if (sizes.length < 2) return null;
  const series: ChartSeries[] = [];
  const keyOf = new Map<string, string>();
  // Two connection levels of one workload at one size and depth (memtier-matrix) are two series.
  const cell = (r: ChartRow) => `${r.workload}/${r.pipeline}/${r.valueSize}`;
  const levels = new Set(sized.map(cell)).size < sized.length;
  const seriesName = (r: ChartRow) => `${r.workload}, ${depth(r.pipeline)}${levels && r.connections !== undefined ? `, ${r.connections} conns` : ''}`;
  for (const r of sized) {
    const name = seriesName(r);
    if (!keyOf.has(name)) {
      keyOf.set(name, `s${keyOf.size}`);
      series.push({ key: keyOf.get(name)!, name });
    }
  }
  const data = sizes.map((size) => {
    const datum: BarChartData['data'][number] = { label: formatValueSize(size) };
    for (const s of series) datum[s.key] = null;
    for (const r of sized.filter((row) => row.valueSize === size)) datum[keyOf.get(seriesName(r))!] = r.opsPerSec;
    return datum;
  });
  return { data, series };
}

const sizeLabel = (bytes: number | null) => (bytes === null ? 'varies' : formatValueSize(bytes));

/** encryption-overhead's medians as bars: per value size (the x axis), one bar per variant. */
export function encryptionOverheadChart(scenarios: readonly EncryptionScenario[]): BarChartData {
  const rows = encryptionOverhead(scenarios);
  const series = ENCRYPTION_VARIANTS.map((variant, i) => ({ key: `v${i}`, name: encryptionVariantLabel(variant) }));
  const sizes = [...new Set(rows.map((r) => r.valueSize))];
  return {
    series,
    data: sizes.map((size) => {
      const datum: BarChartData['data'][number] = { label: sizeLabel(size) };
      for (const s of series) datum[s.key] = rows.find((r) => r.valueSize === size && r.label === s.name)?.qps ?? null;
      return datum;
    }),
  };
}

/** One chart of a suite: a stable key (for file names), its title, its unit and its bars. */
export interface SuiteChart {
  key: 'qps-by-size' | 'ops' | 'p99' | 'encryption';
  title: string;
  unit: 'ops/s' | 'ms';
  chart: BarChartData;
}

/** The charts of one suite, titled as the console's report page titles them. */
export function suiteCharts(run: { workload: string; scenarios: readonly ChartScenario[] }): SuiteChart[] {
  const name = run.workload;
  if (name === 'encryption-overhead') return [{ key: 'encryption', title: `${name}: median ops/s by value size and encryption`, unit: 'ops/s', chart: encryptionOverheadChart(run.scenarios) }];
  const rows = chartRowsOf(run.scenarios);
  if (rows.length === 0) return [];
  const bySize = qpsByValueSizeAndPipeline(rows);
  return [
    ...(bySize ? [{ key: 'qps-by-size' as const, title: `${name}: ops/s by value size and pipeline`, unit: 'ops/s' as const, chart: bySize }] : []),
    { key: 'ops', title: `${name}: ops/s, Basalt vs peer`, unit: 'ops/s', chart: basaltVsPeer(rows, 'ops') },
    { key: 'p99', title: `${name}: p99 latency, Basalt vs peer`, unit: 'ms', chart: basaltVsPeer(rows, 'p99') },
  ];
}
