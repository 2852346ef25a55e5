'use client'
// The instances list's small ops/s chart: the last 15 minutes of reads + writes + other.
import { Line, LineChart } from 'recharts'
import { useInstanceMetricsQuery } from '@/data/instances/instance-metrics-query'
import { chartAnimationEnabled } from '@/lib/chart-animation'

const OPS = ['ops_read', 'ops_write', 'ops_other'] as const

export function OpsSparkline({ projectId, instanceId, running }: { projectId: string; instanceId: string; running: boolean }) {
  const { data, error } = useInstanceMetricsQuery(projectId, instanceId, '15m', [...OPS], running)
  if (!running) return <span className="text-xs text-muted">—</span>
  if (error) return <span className="text-xs text-muted" title={error.message}>n/a</span>
  const totals = new Map<number, number>()
  for (const s of data?.series ?? []) for (const p of s.points) totals.set(p.t, (totals.get(p.t) ?? 0) + p.v)
  const rows = [...totals].sort((a, b) => a[0] - b[0]).map(([t, v]) => ({ t, v }))
  const now = rows.at(-1)?.v
  return (
    <span className="inline-flex items-center gap-2">
      {rows.length > 1 ? (
        <LineChart width={80} height={24} data={rows} aria-hidden>
          <Line dataKey="v" stroke="#0e7c66" dot={false} strokeWidth={1.5} isAnimationActive={chartAnimationEnabled()} />
        </LineChart>
      ) : null}
      <span className="text-xs tabular-nums text-muted" aria-label="Operations per second">
        {now === undefined ? '—' : `${Math.round(now).toLocaleString('en-US')}/s`}
      </span>
    </span>
  )
}
