// A per-type benchmark report (GET /v1/instance-types/{id}/benchmarks/latest) shaped for the
// Instance types page: the catalog's figures, the headline, and each suite's charts, tables
// and command lines. Every figure is one the worker stored or the API computed from them.
import { basaltVsPeer, qpsByValueSizeAndPipeline, type BarChartData } from '@/components/benchmarks/benchmark-charts'
import { benchmarkRows, type BenchmarkRow, type PeerFigures } from '@/components/benchmarks/benchmark-rows'
import type { InstanceType } from '@/data/catalog/instance-types-query'
import type { TypeReport } from '@/data/type-reports/type-report-types'
import { formatDateTime, formatNumber } from '../instances/format'

/** The catalog's reference figures of a type, from Basalt's own latest report; null when it has none. */
export interface CatalogFigures {
  readsPerSec: string
  writesPerSec: string
  p99Ms: string
  /** Where the figures come from, with their date: never a figure without it. */
  provenance: string
}

/** The fields that say where a report's figures were measured (a catalog reference or a report). */
interface Provenance {
  origin: 'local' | 'published'
  measured_at: string | null
  host: string | null
  commit: string | null
}

/**
 * "Basalt, <date>" for a report made on this install (when it finished); for a committed one
 * loaded at the start, "published report, measured <date> on <host>, commit <sha>".
 */
export function reportProvenance(report: Provenance & { finished_at: string | null }): string {
  if (report.origin === 'local') return `Basalt, ${formatDateTime(report.finished_at ?? report.measured_at)}`
  return `published report, measured ${formatDateTime(report.measured_at)} on ${report.host ?? 'an unnamed host'}, commit ${report.commit ?? 'unknown'}`
}

export function catalogFigures(type: Pick<InstanceType, 'reference'>): CatalogFigures | null {
  const ref = type.reference
  if (!ref) return null
  return {
    readsPerSec: formatNumber(ref.reads_per_sec),
    writesPerSec: formatNumber(ref.writes_per_sec),
    p99Ms: formatNumber(ref.p99_latency_ms),
    provenance: reportProvenance({ ...ref, finished_at: ref.published_at }),
  }
}

/** The report's headline as labelled figures, in the order the page shows them. */
export function headlineFigures(report: Pick<TypeReport, 'headline'>): { label: string; value: string }[] {
  const h = report.headline
  if (!h) return []
  return [
    { label: 'Reads/s (read-only 128 B, ping-pong)', value: formatNumber(h.reads_per_sec) },
    { label: 'Writes/s (write-only 128 B, ping-pong)', value: formatNumber(h.writes_per_sec) },
    { label: 'p99 latency of those reads (ms)', value: formatNumber(h.p99_latency_ms) },
    { label: 'Basalt / peer ops/s (median over the scenarios with a peer)', value: h.peer_ratio === null ? '—' : `${h.peer_ratio.toFixed(2)}×` },
  ]
}

/** One suite of the report: its run (for its command lines and notes), its rows and its charts. */
export interface ReportSuite {
  run: TypeReport['runs'][number]
  rows: (BenchmarkRow & { peer: PeerFigures | null })[]
  /** Basalt's ops/s per value size and pipeline: only for a suite run at two or more value sizes. */
  qpsBySize: BarChartData | null
  throughput: BarChartData
  latency: BarChartData
}

export function reportSuites(report: Pick<TypeReport, 'runs'>): ReportSuite[] {
  return report.runs.map((run) => {
    const rows = benchmarkRows(run)
    return {
      run,
      rows,
      qpsBySize: qpsByValueSizeAndPipeline(rows),
      throughput: basaltVsPeer(rows, 'ops'),
      latency: basaltVsPeer(rows, 'p99'),
    }
  })
}

/** A report the worker has not finished: pending (no worker yet) or running. */
export const reportUnfinished = (status: TypeReport['status']) => status === 'pending' || status === 'running'

/**
 * The report the page follows with live progress: the newest one, while it runs, or when it
 * ended without succeeding after the latest published report (its failure is worth showing).
 */
export function reportInProgress(
  reports: Pick<TypeReport, 'id' | 'status' | 'created_at'>[],
  latest: Pick<TypeReport, 'id' | 'created_at'> | null,
): Pick<TypeReport, 'id' | 'status'> | null {
  const newest = [...reports].sort((a, b) => b.created_at.localeCompare(a.created_at))[0]
  if (!newest) return null
  if (reportUnfinished(newest.status)) return newest
  if (newest.status === 'succeeded' || newest.id === latest?.id) return null
  return latest && latest.created_at > newest.created_at ? null : newest
}

/** Where the report's white paper is served (through the console's /v1 proxy). */
export function reportMarkdownUrl(typeId: string, reportId: string): string {
  return `/v1/instance-types/${encodeURIComponent(typeId)}/benchmarks/${encodeURIComponent(reportId)}/report.md`
}

/** Where its JSON document is served: what a published report's charts are drawn from. */
export function reportDocumentUrl(typeId: string, reportId: string): string {
  return `/v1/instance-types/${encodeURIComponent(typeId)}/benchmarks/${encodeURIComponent(reportId)}/report.json`
}
