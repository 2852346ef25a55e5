'use client'
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts'
import { Card, CardBody, CardHeader, CardTitle } from '@/components/ui/card'
import type { InstanceMetrics } from '@/data/instances/instance-metrics-query'
import { chartAnimationEnabled } from '@/lib/chart-animation'
import { chartRows, formatValue, latest, type ChartSpec } from './monitoring-charts'

const time = (t: number, rangeSeconds: number) =>
  new Date(t * 1000).toLocaleString('en-GB', rangeSeconds > 86_400 ? { day: '2-digit', month: 'short', hour: '2-digit', minute: '2-digit', timeZone: 'UTC' } : { hour: '2-digit', minute: '2-digit', timeZone: 'UTC' })

export function MetricChart({ metrics, spec }: { metrics: InstanceMetrics; spec: ChartSpec }) {
  const rows = chartRows(metrics, spec)
  const first = spec.lines[0]
  const now = latest(rows, first.key)
  const range = metrics.end - metrics.start
  return (
    <Card>
      <CardHeader className="flex items-baseline justify-between gap-2">
        <CardTitle>{spec.title}</CardTitle>
        <span className="text-sm tabular-nums text-muted" aria-label={`${spec.title}: latest ${first.label}`}>
          {rows.length ? formatValue(spec.unit, now) : ''}
        </span>
      </CardHeader>
      <CardBody>
        {rows.length === 0 ? (
          <p className="flex h-48 items-center justify-center text-sm text-muted">No data in this range</p>
        ) : (
          <figure aria-label={spec.title} className="h-48 w-full">
            <ResponsiveContainer width="100%" height="100%">
              <LineChart data={rows} margin={{ top: 4, right: 8, bottom: 0, left: 0 }}>
                <CartesianGrid strokeDasharray="3 3" stroke="#e3e6eb" vertical={false} />
                <XAxis dataKey="t" type="number" domain={[metrics.start, metrics.end]} tickFormatter={(t: number) => time(t, range)} tick={{ fontSize: 11 }} />
                <YAxis tickFormatter={(v: number) => formatValue(spec.unit, v)} tick={{ fontSize: 11 }} width={84} />
                <Tooltip labelFormatter={(t) => time(Number(t), range)} formatter={(v) => formatValue(spec.unit, Number(v))} />
                {spec.lines.length > 1 ? <Legend wrapperStyle={{ fontSize: 12 }} /> : null}
                {spec.lines.map((line) => (
                  <Line key={line.key} dataKey={line.key} name={line.label} stroke={line.color} dot={false} strokeWidth={1.5} connectNulls={false} isAnimationActive={chartAnimationEnabled()} />
                ))}
              </LineChart>
            </ResponsiveContainer>
          </figure>
        )}
      </CardBody>
    </Card>
  )
}
