'use client'
// A finished (or running) benchmark run as tables and command lines: shared by an instance's
// Benchmarks tab and the Instance types page, so both read a run the same way.
import { CodeBlock } from '@/components/ui/code-block'
import { Table, TBody, Td, Th, THead, Tr } from '@/components/ui/table'
import type { Benchmark } from '@/data/benchmarks/instance-benchmarks-query'
import { formatNumber } from '../instances/format'
import { commandGroups, runNotes, type BenchmarkRow, type PeerFigures } from './benchmark-rows'

/** One row per scenario: Basalt's figures, then the peer's beside them and the ratio. */
export function BenchmarkResultsTable({ rows, label = 'Benchmark results' }: { rows: (BenchmarkRow & { peer: PeerFigures | null })[]; label?: string }) {
  return (
    <Table aria-label={label}>
      <THead>
        <tr>
          <Th>Scenario</Th>
          <Th className="text-right">Value</Th>
          <Th className="text-right">Conns</Th>
          <Th className="text-right">Pipeline</Th>
          <Th className="text-right">Ops/s</Th>
          <Th className="text-right">Avg (ms)</Th>
          <Th className="text-right">p50 (ms)</Th>
          <Th className="text-right">p99 (ms)</Th>
          <Th className="text-right">p99.9 (ms)</Th>
          <Th className="text-right">Errors</Th>
          <Th className="text-right">Peer ops/s</Th>
          <Th className="text-right">Peer p99 (ms)</Th>
          <Th className="text-right">Basalt / peer</Th>
        </tr>
      </THead>
      <TBody>
        {rows.map((row) => (
          <Tr key={row.label}>
            <Td>{row.label}</Td>
            <Td className="text-right tabular-nums">{row.valueSize === null ? 'varies' : `${formatNumber(row.valueSize)} B`}</Td>
            <Td className="text-right tabular-nums">{row.connections}</Td>
            <Td className="text-right tabular-nums">{row.pipeline}</Td>
            <Td className="text-right tabular-nums">{formatNumber(row.opsPerSec)}</Td>
            <Td className="text-right tabular-nums">{formatNumber(row.avgMs)}</Td>
            <Td className="text-right tabular-nums">{formatNumber(row.p50Ms)}</Td>
            <Td className="text-right tabular-nums">{formatNumber(row.p99Ms)}</Td>
            <Td className="text-right tabular-nums">{formatNumber(row.p999Ms)}</Td>
            <Td className="text-right tabular-nums">{row.errors}</Td>
            <Td className="text-right tabular-nums" title={row.peer?.version}>{row.peer ? formatNumber(row.peer.opsPerSec) : '—'}</Td>
            <Td className="text-right tabular-nums">{row.peer ? formatNumber(row.peer.p99Ms) : '—'}</Td>
            <Td className="text-right tabular-nums">{row.peer ? `${row.peer.ratio.toFixed(2)}×` : '—'}</Td>
          </Tr>
        ))}
      </TBody>
    </Table>
  )
}

/** Every command line of the run, copyable, and what the worker wrote about how it was set up. */
export function BenchmarkCommands({ benchmark }: { benchmark: Pick<Benchmark, 'scenarios' | 'results'> }) {
  const notes = runNotes(benchmark)
  return (
    <>
      {commandGroups(benchmark).map((group) => (
        <div key={group.label} className="space-y-1">
          <p className="text-xs font-medium text-muted" aria-hidden>
            {group.label}
          </p>
          <CodeBlock value={group.lines.join('\n')} label={group.label} />
        </div>
      ))}
      {notes.length ? (
        <ul aria-label="How this run was set up" className="list-disc space-y-1 pl-5 text-xs text-muted">
          {notes.map((note) => (
            <li key={note}>{note}</li>
          ))}
        </ul>
      ) : null}
    </>
  )
}
