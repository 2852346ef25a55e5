// What the benchmark charts plot, shaped from a run's rows (benchmark-rows.ts): the figures the
// worker stored, arranged per chart, never recomputed.
import type { BenchmarkRow, PeerFigures } from './benchmark-rows'

type Row = BenchmarkRow & { peer: PeerFigures | null }

/** One bar series: its key in each datum and the name the legend and tooltip show. */
export interface ChartSeries {
  key: string
  name: string
}

/** Bars grouped by `label` (the x axis), one bar per series; null where a series has no figure. */
export interface BarChartData {
  data: ({ label: string } & Record<string, string | number | null>)[]
  series: ChartSeries[]
}

const METRIC = {
  ops: { basalt: (r: Row) => r.opsPerSec, peer: (p: PeerFigures) => p.opsPerSec },
  p99: { basalt: (r: Row) => r.p99Ms, peer: (p: PeerFigures) => p.p99Ms },
} as const

/** Per scenario, Basalt and beside it the run's peer (where the peer ran that scenario). */
export function basaltVsPeer(rows: Row[], metric: keyof typeof METRIC): BarChartData {
  const pick = METRIC[metric]
  const peerName = rows.find((r) => r.peer)?.peer?.version
  return {
    data: rows.map((r) => ({ label: r.label, basalt: pick.basalt(r), peer: r.peer ? pick.peer(r.peer) : null })),
    series: [{ key: 'basalt', name: 'Basalt' }, ...(peerName ? [{ key: 'peer', name: peerName }] : [])],
  }
}

export function formatValueSize(bytes: number): string {
  return bytes >= 1024 && bytes % 1024 === 0 ? `${bytes / 1024} KB` : `${bytes} B`
}

const depth = (pipeline: number) => (pipeline === 1 ? 'ping-pong' : `pipeline ${pipeline}`)

/**
 * Basalt's ops/s per value size (the x axis), one bar per workload at its pipeline depth: the
 * papers' memtier matrix. Null for a run with fewer than two fixed value sizes (nothing to compare).
 */
export function qpsByValueSizeAndPipeline(rows: Row[]): BarChartData | null {
  const sized = rows.filter((r): r is Row & { valueSize: number } => r.valueSize !== null)
  const sizes = [...new Set(sized.map((r) => r.valueSize))].sort((a, b) => a - b)
  if (sizes.length < 2) return null
  const series: ChartSeries[] = []
  const keyOf = new Map<string, string>()
  for (const r of sized) {
    const name = `${r.workload}, ${depth(r.pipeline)}`
    if (!keyOf.has(name)) {
      keyOf.set(name, `s${keyOf.size}`)
      series.push({ key: keyOf.get(name)!, name })
    }
  }
  const data = sizes.map((size) => {
    const datum: BarChartData['data'][number] = { label: formatValueSize(size) }
    for (const s of series) datum[s.key] = null
    for (const r of sized.filter((row) => row.valueSize === size)) datum[keyOf.get(`${r.workload}, ${depth(r.pipeline)}`)!] = r.opsPerSec
    return datum
  })
  return { data, series }
}
