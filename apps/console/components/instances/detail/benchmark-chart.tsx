'use client'
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts'
import { formatNumber } from '../format'
import { chartAnimationEnabled, type BenchmarkRow } from './benchmark-rows'

export function BenchmarkChart({ rows }: { rows: BenchmarkRow[] }) {
  const data = rows.filter((r) => r.opsPerSec !== undefined)
  if (!data.length) return null
  return (
    <figure aria-label="Throughput by workload" className="h-64 w-full">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} margin={{ top: 8, right: 8, bottom: 8, left: 8 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="#e3e6eb" vertical={false} />
          <XAxis dataKey="label" tick={{ fontSize: 12 }} />
          <YAxis tickFormatter={(v: number) => formatNumber(v)} tick={{ fontSize: 12 }} width={72} />
          <Tooltip formatter={(v) => [`${formatNumber(Number(v))} ops/s`, 'Throughput']} />
          <Bar dataKey="opsPerSec" fill="#0e7c66" radius={[3, 3, 0, 0]} isAnimationActive={chartAnimationEnabled()} />
        </BarChart>
      </ResponsiveContainer>
    </figure>
  )
}
