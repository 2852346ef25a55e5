'use client'
// The instances list's small ops/s chart: the last 15 minutes of reads + writes + other.
// Drawn as one SVG polyline rather than with recharts: a decorative 80×24 line needs no axes,
// tooltips or layout, and recharts (about 90 KB compressed) would be the largest part of the
// list page's JavaScript. The instance page's charts, which need all of that, use recharts.
import { useInstanceMetricsQuery } from '@/data/instances/instance-metrics-query'

const OPS = ['ops_read', 'ops_write', 'ops_other'] as const
const WIDTH = 80
const HEIGHT = 24
const STROKE = 1.5

/** The polyline through `values` over a width × height box, inset by half the stroke so the line is never clipped. */
export function sparklinePoints(values: number[], width = WIDTH, height = HEIGHT, inset = STROKE / 2): string {
  if (values.length < 2) return ''
  const min = Math.min(...values)
  const span = Math.max(...values) - min
  const step = (width - 2 * inset) / (values.length - 1)
  return values
    .map((v, i) => {
      // A flat series is drawn across the middle, not along the bottom edge.
      const y = span === 0 ? height / 2 : inset + (1 - (v - min) / span) * (height - 2 * inset)
      return `${+(inset + i * step).toFixed(2)},${+y.toFixed(2)}`
    })
    .join(' ')
}

export function OpsSparkline({ projectId, instanceId, running }: { projectId: string; instanceId: string; running: boolean }) {
  const { data, error } = useInstanceMetricsQuery(projectId, instanceId, '15m', [...OPS], running)
  if (!running) return <span className="text-xs text-muted">—</span>
  if (error) return <span className="text-xs text-muted" title={error.message}>n/a</span>
  const totals = new Map<number, number>()
  for (const s of data?.series ?? []) for (const p of s.points) totals.set(p.t, (totals.get(p.t) ?? 0) + p.v)
  const values = [...totals].sort((a, b) => a[0] - b[0]).map(([, v]) => v)
  const now = values.at(-1)
  return (
    <span className="inline-flex items-center gap-2">
      {values.length > 1 ? (
        <svg width={WIDTH} height={HEIGHT} viewBox={`0 0 ${WIDTH} ${HEIGHT}`} aria-hidden>
          <polyline points={sparklinePoints(values)} fill="none" stroke="#0e7c66" strokeWidth={STROKE} strokeLinejoin="round" />
        </svg>
      ) : null}
      <span className="text-xs tabular-nums text-muted" aria-label="Operations per second">
        {now === undefined ? '—' : `${Math.round(now).toLocaleString('en-US')}/s`}
      </span>
    </span>
  )
}
