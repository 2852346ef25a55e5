import { render, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { encryption, report } from './report-fixture'
import { TypeReportView } from './type-report-view'

describe('TypeReportView', () => {
  it('shows where and how the report was measured, its headline and its white paper', () => {
    render(<TypeReportView report={report} />)
    const environment = screen.getByRole('region', { name: /Latest report/ })
    expect(within(environment).getByLabelText('Environment')).toHaveTextContent(report.environment)
    expect(within(environment).getByText('Redis 7.0.15, memcached 1.6.21')).toBeInTheDocument()
    expect(within(environment).getByRole('link', { name: 'report.md' })).toHaveAttribute('href', '/v1/instance-types/kv.standard.small/benchmarks/report-1/report.md')
    const headline = within(environment).getByLabelText('Headline figures')
    expect(within(headline).getAllByRole('definition').map((d) => d.textContent)).toEqual(['40,000', '30,000', '1.5', '1.23×'])
  })

  it('gives each suite its table, charts and every command line', () => {
    render(<TypeReportView report={report} />)
    const memtier = screen.getByRole('region', { name: 'memtier-standard' })
    const rows = within(within(memtier).getByRole('table', { name: 'memtier-standard results' })).getAllByRole('row')
    expect(rows).toHaveLength(7)
    expect(within(rows[1]!).getAllByRole('cell').map((c) => c.textContent)).toEqual(['write-only 128', '128 B', '16', '1', '30,000', '1', '0.9', '1.5', '3', '0', '20,000', '2', '1.50×'])
    expect(within(memtier).getByLabelText('basalt-bench commands against the peer (Redis 7.0.15)').textContent).toContain('basalt-bench --server=10.77.255.2 --scenario=1')
    expect(within(memtier).getByText('memtier-standard: ops/s by value size and pipeline (Basalt)')).toBeInTheDocument()
    // canonical has value sizes that vary: no chart by value size, but Basalt beside memcached.
    const canonical = screen.getByRole('region', { name: 'canonical' })
    expect(within(canonical).queryByText(/by value size/)).toBeNull()
    expect(within(canonical).getByText('canonical: p99 latency (ms), Basalt vs peer')).toBeInTheDocument()
  })

  it('shows encryption-overhead as the overhead table, each overhead against the engine without encryption', () => {
    render(<TypeReportView report={{ ...report, suites: [...report.suites, 'encryption-overhead'], runs: [...report.runs, encryption] }} />)
    const suite = screen.getByRole('region', { name: 'encryption-overhead' })
    // One chart of the medians by value size and encryption; no Basalt-vs-peer charts (no peer).
    expect(within(suite).getByText('encryption-overhead: median ops/s by value size and encryption (Basalt)')).toBeInTheDocument()
    expect(within(suite).queryByText(/Basalt vs peer/)).toBeNull()
    const rows = within(within(suite).getByRole('table', { name: 'encryption-overhead results' })).getAllByRole('row')
    expect(rows.slice(1).map((r) => within(r).getAllByRole('cell').map((c) => c.textContent).slice(1, 7))).toEqual([
      ['no encryption', '1', '10,000', '10,000', '10,000–10,000', '—'],
      ['TLS', '1', '10,000', '8,000', '8,000–8,000', '+20.0%'],
      ['encryption at rest', '1', '10,000', '9,900', '9,900–9,900', '+1.0%'],
      ['TLS and encryption at rest', '1', '10,000', '7,600', '7,600–7,600', '+24.0%'],
    ])
  })
})
