// What each chart of the Monitoring tab draws: which series, in which unit, and the rows that
// recharts wants (one per time, a column per series). Pure, so it is tested without a browser.
import type { MetricSeriesKey } from '@basalt/api-client/rules'
import type { InstanceMetrics } from '@/data/instances/instance-metrics-query'
import { formatBytes } from '../format'

export type ChartUnit = 'ops' | 'ms' | 'bytes' | 'count' | 'percent' | 'seconds'

export interface ChartSpec {
  title: string
  unit: ChartUnit
  lines: { key: MetricSeriesKey | 'disk_limit'; label: string; color: string }[]
}

export const CHARTS: ChartSpec[] = [
  { title: 'Operations per second', unit: 'ops', lines: [
    { key: 'ops_read', label: 'Reads', color: '#0e7c66' },
    { key: 'ops_write', label: 'Writes', color: '#2563eb' },
    { key: 'ops_other', label: 'Other', color: '#9ca3af' },
  ] },
  { title: 'Latency (server side)', unit: 'ms', lines: [
    { key: 'latency_p50_read', label: 'Read p50', color: '#0e7c66' },
    { key: 'latency_p99_read', label: 'Read p99', color: '#34d399' },
    { key: 'latency_p50_write', label: 'Write p50', color: '#2563eb' },
    { key: 'latency_p99_write', label: 'Write p99', color: '#93c5fd' },
  ] },
  { title: 'Memory', unit: 'bytes', lines: [
    { key: 'memory_used', label: 'Used', color: '#0e7c66' },
    { key: 'memory_max', label: 'maxmemory', color: '#dc2626' },
  ] },
  { title: 'Connections', unit: 'count', lines: [{ key: 'connections', label: 'Clients', color: '#0e7c66' }] },
  { title: 'Hit ratio', unit: 'percent', lines: [{ key: 'hit_ratio', label: 'Hits', color: '#0e7c66' }] },
  { title: 'Disk', unit: 'bytes', lines: [
    { key: 'disk_used', label: 'Log on disk', color: '#0e7c66' },
    { key: 'disk_limit', label: 'Disk size', color: '#dc2626' },
  ] },
  { title: 'Replication lag', unit: 'seconds', lines: [{ key: 'replication_lag', label: 'Lag', color: '#0e7c66' }] },
  { title: 'Backups', unit: 'seconds', lines: [
    { key: 'archive_lag', label: 'Archive lag', color: '#0e7c66' },
    { key: 'backup_age', label: 'Age of the last backup', color: '#2563eb' },
  ] },
]

export type ChartRow = { t: number } & Record<string, number>

/** Converts an API value to the chart's unit (seconds to ms, ratio to percent). */
function scaled(unit: ChartUnit, v: number): number {
  if (unit === 'ms') return v * 1000
  if (unit === 'percent') return v * 100
  return v
}

/** One row per time any line has a point; the disk size is a constant line over them. */
export function chartRows(metrics: InstanceMetrics, spec: ChartSpec): ChartRow[] {
  const rows = new Map<number, ChartRow>()
  for (const line of spec.lines) {
    const series = metrics.series.find((s) => s.key === line.key)
    for (const p of series?.points ?? []) {
      const row = rows.get(p.t) ?? ({ t: p.t } as ChartRow)
      row[line.key] = scaled(spec.unit, p.v)
      rows.set(p.t, row)
    }
  }
  const sorted = [...rows.values()].sort((a, b) => a.t - b.t)
  if (spec.lines.some((l) => l.key === 'disk_limit')) for (const row of sorted) row.disk_limit = metrics.disk_limit_bytes
  return sorted
}

/** The newest value of a line, for the figure beside a chart's title. */
export function latest(rows: ChartRow[], key: string): number | undefined {
  for (let i = rows.length - 1; i >= 0; i--) if (rows[i][key] !== undefined) return rows[i][key]
  return undefined
}

export function formatValue(unit: ChartUnit, v: number | undefined): string {
  if (v === undefined || !Number.isFinite(v)) return '—'
  switch (unit) {
    case 'ops':
      return `${Math.round(v).toLocaleString('en-US')} ops/s`
    case 'ms':
      return `${v < 1 ? v.toFixed(3) : v.toFixed(1)} ms`
    case 'percent':
      return `${v.toFixed(1)} %`
    case 'seconds':
      return `${v.toFixed(2)} s`
    case 'bytes':
      return formatBytes(v)
    default:
      return Math.round(v).toLocaleString('en-US')
  }
}
