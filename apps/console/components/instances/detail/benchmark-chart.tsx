'use client'
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts'
import { formatNumber } from '../format'
import { chartAnimationEnabled, type BenchmarkRow, type PeerFigures } from './benchmark-rows'

/** Ops/s per scenario: Basalt, and beside it the run's peer where it ran the scenario too. */
export function BenchmarkChart({ rows }: { rows: (BenchmarkRow & { peer: PeerFigures | null })[] }) {
  const data = rows.map((r) => ({ label: r.label, opsPerSec: r.opsPerSec, peerOpsPerSec: r.peer?.opsPerSec }))
  if (!data.length) return null
  const peerName = rows.find((r) => r.peer)?.peer?.version
  return (
    <figure aria-label="Throughput by workload" className="h-64 w-full">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} margin={{ top: 8, right: 8, bottom: 8, left: 8 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="#e3e6eb" vertical={false} />
          <XAxis dataKey="label" tick={{ fontSize: 12 }} />
          <YAxis tickFormatter={(v: number) => formatNumber(v)} tick={{ fontSize: 12 }} width={72} />
          <Tooltip formatter={(v, name) => [`${formatNumber(Number(v))} ops/s`, name]} />
          <Bar dataKey="opsPerSec" name="Basalt" fill="#0e7c66" radius={[3, 3, 0, 0]} isAnimationActive={chartAnimationEnabled()} />
          {peerName ? <Bar dataKey="peerOpsPerSec" name={peerName} fill="#9aa4b2" radius={[3, 3, 0, 0]} isAnimationActive={chartAnimationEnabled()} /> : null}
        </BarChart>
      </ResponsiveContainer>
    </figure>
  )
}
