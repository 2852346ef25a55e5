'use client'
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts'
import { chartAnimationEnabled } from '@/lib/chart-animation'
import { formatNumber } from '../instances/format'
import { seriesColour, type BarChartData } from './benchmark-charts'

/** A bar chart of benchmark figures (benchmark-charts.ts shapes them), titled for screen readers. */
export function BenchmarkChart({ title, chart, unit }: { title: string; chart: BarChartData; unit: string }) {
  if (!chart.data.length) return null
  const animate = chartAnimationEnabled()
  return (
    <figure aria-label={title} className="h-64 w-full">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={chart.data} margin={{ top: 8, right: 8, bottom: 8, left: 8 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="#e3e6eb" vertical={false} />
          <XAxis dataKey="label" tick={{ fontSize: 12 }} />
          <YAxis tickFormatter={(v: number) => formatNumber(v)} tick={{ fontSize: 12 }} width={72} />
          <Tooltip formatter={(v, name) => [`${formatNumber(Number(v))} ${unit}`, name]} />
          {chart.series.length > 1 ? <Legend wrapperStyle={{ fontSize: 12 }} /> : null}
          {chart.series.map((s, i) => (
            <Bar key={s.key} dataKey={s.key} name={s.name} fill={seriesColour(s.key, i)} radius={[3, 3, 0, 0]} isAnimationActive={animate} />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </figure>
  )
}
