'use client'
import Link from 'next/link'
import { PageHeader } from '@/components/layout/page-header'
import { Alert } from '@/components/ui/alert'
import { Card } from '@/components/ui/card'
import { Table, TBody, Td, Th, THead, Tr } from '@/components/ui/table'
import { useInstanceTypesQuery, type InstanceType } from '@/data/catalog/instance-types-query'
import { formatGib, formatNumber } from '../instances/format'
import { catalogFigures } from './report-figures'

/** The catalog: every instance type's size and limits, and the figures of Basalt's own latest report of it. */
export function InstanceTypesPage({ projectId }: { projectId: string }) {
  const { data: types, error, isPending } = useInstanceTypesQuery()
  return (
    <>
      <PageHeader
        title="Instance types"
        description="The sizes an instance can have. Each type's figures come from Basalt's own latest report: the standard suites run on a temporary instance of the type, beside a peer (Redis 7 or memcached) measured in the same run. Until one is made on this install, a type shows the report published with Basalt, labelled with the date, host and commit it was measured on."
      />
      <main className="space-y-4 px-8 py-6">
        {error ? <Alert tone="danger">Could not load the instance types: {error.message}</Alert> : null}
        <Card>
          {isPending ? (
            <p className="px-5 py-10 text-center text-sm text-muted">Loading instance types…</p>
          ) : types?.length ? (
            <CatalogTable projectId={projectId} types={types} />
          ) : error ? null : (
            <p className="px-5 py-10 text-center text-sm text-muted">The catalog has no instance types.</p>
          )}
        </Card>
      </main>
    </>
  )
}

function CatalogTable({ projectId, types }: { projectId: string; types: InstanceType[] }) {
  return (
    <Table aria-label="Instance types" className="whitespace-nowrap">
      <THead>
        <tr>
          <Th>Type</Th>
          <Th className="text-right">vCPU</Th>
          <Th className="text-right">Memory</Th>
          <Th className="text-right">Disk</Th>
          <Th className="text-right">Connections</Th>
          <Th>Regions</Th>
          <Th className="text-right">Reads/s</Th>
          <Th className="text-right">Writes/s</Th>
          <Th className="text-right">p99 (ms)</Th>
          <Th>Report</Th>
        </tr>
      </THead>
      <TBody>
        {types.map((type) => {
          const figures = catalogFigures(type)
          return (
            <Tr key={type.id}>
              <Td>
                <Link href={`/projects/${projectId}/instance-types/${encodeURIComponent(type.id)}`} className="font-mono text-xs font-semibold text-brand hover:underline">
                  {type.id}
                </Link>
              </Td>
              <Td className="text-right tabular-nums">{type.vcpu}</Td>
              <Td className="text-right tabular-nums">{formatGib(type.memory_gib)}</Td>
              <Td className="text-right tabular-nums">
                {type.disk_gib_min}–{formatGib(type.disk_gib_max)}
              </Td>
              <Td className="text-right tabular-nums">{formatNumber(type.max_connections)}</Td>
              <Td>{type.regions.length ? type.regions.join(', ') : 'every region'}</Td>
              <Td className="text-right tabular-nums">{figures?.readsPerSec ?? '—'}</Td>
              <Td className="text-right tabular-nums">{figures?.writesPerSec ?? '—'}</Td>
              <Td className="text-right tabular-nums">{figures?.p99Ms ?? '—'}</Td>
              <Td className="min-w-48 whitespace-normal text-muted">{figures ? figures.provenance : 'no report yet'}</Td>
            </Tr>
          )
        })}
      </TBody>
    </Table>
  )
}
