// A benchmark run's scenarios as the table and the chart show them: one row per scenario the
// worker's job measured (its stored figures, never recomputed here).
import type { Benchmark } from '@/data/benchmarks/instance-benchmarks-query'

export interface BenchmarkRow {
  label: string
  workload: string
  valueSize: number | null
  connections: number
  pipeline: number
  opsPerSec: number
  avgMs: number
  p50Ms: number | null
  p99Ms: number | null
  p999Ms: number | null
  errors: number
  command: string
  /** The same run with memtier_benchmark or YCSB, when the scenario has such a twin. */
  memtierCommand: string | null
  ycsbCommand: string | null
}

/** The run's peer (Redis or memcached, same run, same VM size) on the same scenario. */
export interface PeerFigures {
  server: string
  version: string
  opsPerSec: number
  p99Ms: number | null
  /** Basalt's ops/s over the peer's. */
  ratio: number
}

/** One row per scenario measured on the instance; the peer's figures beside it when it ran too. */
export function benchmarkRows(benchmark: Pick<Benchmark, 'scenarios'>): (BenchmarkRow & { peer: PeerFigures | null })[] {
  const peers = new Map(benchmark.scenarios.filter((s) => s.server !== 'basalt').map((s) => [s.position, s]))
  return benchmark.scenarios.filter((s) => s.server === 'basalt').map((s) => {
    const peer = peers.get(s.position)
    return {
      ...rowOf(s),
      peer: peer ? { server: peer.server, version: peer.engine_version, opsPerSec: peer.qps, p99Ms: peer.p99_latency_ms, ratio: peer.qps > 0 ? s.qps / peer.qps : 0 } : null,
    }
  })
}

function rowOf(s: Benchmark['scenarios'][number]): BenchmarkRow {
  return {
    label: s.name,
    workload: s.workload,
    valueSize: s.value_size,
    connections: s.connections,
    pipeline: s.pipeline,
    opsPerSec: s.qps,
    avgMs: s.avg_latency_ms,
    p50Ms: s.p50_latency_ms,
    p99Ms: s.p99_latency_ms,
    p999Ms: s.p999_latency_ms,
    errors: s.errors,
    command: s.command_line,
    memtierCommand: s.memtier_command,
    ycsbCommand: s.ycsb_command,
  }
}

/**
 * What the worker wrote about a run's setting: its scaling, the peer's placement, scenarios
 * without a peer, and where an encryption-overhead run's engines ran (not on the instance).
 */
export function runNotes(benchmark: Pick<Benchmark, 'results'>): string[] {
  const r = (benchmark.results ?? {}) as { scaling?: unknown; peer?: { placement?: unknown } | null; peer_note?: unknown; peer_skipped?: unknown; engines?: { placement?: unknown } | null }
  const text = (v: unknown) => (typeof v === 'string' && v ? [v] : [])
  const scaling = Array.isArray(r.scaling) ? r.scaling.flatMap(text).map((s) => `Scaling: ${s}.`) : []
  const peer = text(r.peer?.placement ?? r.peer_note).map((s) => `Peer: ${s}.`)
  const skipped = Array.isArray(r.peer_skipped)
    ? r.peer_skipped.flatMap((s: { name?: unknown; why?: unknown }) => (typeof s.name === 'string' && typeof s.why === 'string' ? [`No peer figure for ${s.name}: ${s.why}.`] : []))
    : []
  const engines = text(r.engines?.placement).map((s) => `Engines measured (one per scenario, started and removed by the run): ${s}.`)
  return [...scaling, ...peer, ...skipped, ...engines]
}

/** A labelled block of command lines, one per scenario, in the order they ran. */
export interface CommandGroup {
  label: string
  lines: string[]
}

/**
 * Every command line of a run: the twins to rerun Basalt's scenarios with memtier_benchmark or
 * YCSB, then basalt-bench as the worker ran it against the instance and against the peer.
 */
export function commandGroups(benchmark: Pick<Benchmark, 'scenarios'>): CommandGroup[] {
  const basalt = benchmark.scenarios.filter((s) => s.server === 'basalt')
  const peers = benchmark.scenarios.filter((s) => s.server !== 'basalt')
  const groups: CommandGroup[] = [
    { label: 'memtier_benchmark commands', lines: basalt.flatMap((s) => (s.memtier_command ? [s.memtier_command] : [])) },
    { label: 'YCSB commands (redis binding, string command group)', lines: basalt.flatMap((s) => (s.ycsb_command ? [s.ycsb_command] : [])) },
    { label: 'basalt-bench commands (as run)', lines: basalt.map((s) => s.command_line) },
    { label: `basalt-bench commands against the peer${peers[0] ? ` (${peers[0].engine_version})` : ''}`, lines: peers.map((s) => s.command_line) },
  ]
  return groups.filter((g) => g.lines.length > 0)
}
