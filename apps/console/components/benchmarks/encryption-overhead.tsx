'use client'
// The encryption-overhead suite's table, in the shape of PolarDB's encryption-overhead table:
// per value size, ops/s without encryption, with each encryption, and the overhead between
// them: the medians of each variant's runs (its row's rounds: round_ops_per_sec). The
// figures come from @basalt/api-client's encryptionOverhead over the stored rows (the report's
// markdown uses the same function), never typed or stored by hand.
import { encryptionOverhead, encryptionOverheadChart as chartOfScenarios } from '@basalt/api-client/rules'
import { Table, TBody, Td, Th, THead, Tr } from '@/components/ui/table'
import type { Benchmark } from '@/data/benchmarks/instance-benchmarks-query'
import { formatNumber } from '../instances/format'
import type { BarChartData } from './benchmark-charts'

export interface EncryptionOverheadLine {
  key: string
  valueSize: string
  encryption: string
  runs: number
  baselineOpsPerSec: string
  /** The median of the variant's runs. */
  opsPerSec: string
  /** Its lowest and highest run. */
  range: string
  /** "+12.3%" (slower than without encryption), "−1.0%" (faster: noise), "—" for the baseline itself. */
  overhead: string
  p99Ms: string
}

const sizeLabel = (bytes: number | null) => (bytes === null ? 'varies' : bytes >= 1024 ? `${bytes / 1024} KB` : `${bytes} B`)

export function encryptionOverheadLines(benchmark: Pick<Benchmark, 'scenarios'>): EncryptionOverheadLine[] {
  return encryptionOverhead(benchmark.scenarios).map((row) => {
    const encrypted = row.variant.tls || row.variant.at_rest
    const p = row.overheadPercent
    return {
      key: `${row.valueSize}-${row.label}`,
      valueSize: sizeLabel(row.valueSize),
      encryption: row.label,
      runs: row.runs,
      baselineOpsPerSec: formatNumber(row.baselineQps),
      opsPerSec: formatNumber(row.qps),
      range: `${formatNumber(row.minQps)}–${formatNumber(row.maxQps)}`,
      overhead: !encrypted || p === null ? '—' : `${p >= 0 ? '+' : '−'}${Math.abs(p).toFixed(1)}%`,
      p99Ms: formatNumber(row.p99LatencyMs),
    }
  })
}

/** The medians as bars: per value size (the x axis), one bar per variant (the series code of the committed reports' charts too). */
export function encryptionOverheadChart(benchmark: Pick<Benchmark, 'scenarios'>): BarChartData {
  return chartOfScenarios(benchmark.scenarios)
}

export function EncryptionOverheadTable({ benchmark, label = 'Encryption overhead' }: { benchmark: Pick<Benchmark, 'scenarios'>; label?: string }) {
  const lines = encryptionOverheadLines(benchmark)
  return (
    <Table aria-label={label}>
      <THead>
        <tr>
          <Th>Value</Th>
          <Th>Encryption</Th>
          <Th className="text-right">Runs</Th>
          <Th className="text-right">Without encryption ops/s</Th>
          <Th className="text-right">Ops/s (median)</Th>
          <Th className="text-right">Lowest–highest run</Th>
          <Th className="text-right">Overhead</Th>
          <Th className="text-right">p99 (ms, median)</Th>
        </tr>
      </THead>
      <TBody>
        {lines.map((line) => (
          <Tr key={line.key}>
            <Td>{line.valueSize}</Td>
            <Td>{line.encryption}</Td>
            <Td className="text-right tabular-nums">{line.runs}</Td>
            <Td className="text-right tabular-nums">{line.baselineOpsPerSec}</Td>
            <Td className="text-right tabular-nums">{line.opsPerSec}</Td>
            <Td className="text-right tabular-nums">{line.range}</Td>
            <Td className="text-right tabular-nums">{line.overhead}</Td>
            <Td className="text-right tabular-nums">{line.p99Ms}</Td>
          </Tr>
        ))}
      </TBody>
    </Table>
  )
}
