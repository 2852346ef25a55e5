'use client'
import { useState, type FormEvent } from 'react'
import { DATA_KEY_TYPES, type DataKeyType } from '@basalt/api-client/rules'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Card, CardBody, CardHeader, CardTitle } from '@/components/ui/card'
import { Field } from '@/components/ui/field'
import { Input } from '@/components/ui/input'
import { OptionsSelect } from '@/components/ui/options-select'
import { Table, TBody, Td, Th, THead, Tr } from '@/components/ui/table'
import { useDataKeysQuery, type DataKeysFilter } from '@/data/data-browser/data-keys-query'
import type { BrowserProps } from './data-browser'
import { formatTtl, TYPE_LABELS } from './data-format'

const TYPE_OPTIONS = [{ value: 'all', label: 'All types' }, ...DATA_KEY_TYPES.map((t) => ({ value: t, label: TYPE_LABELS[t]! }))] as const

/** Keys by pattern and type, a SCAN page at a time: "Load more keys" asks for the next cursor. */
export function KeyList({ projectId, instanceId, login, selected, onSelect }: BrowserProps & { selected: string | null; onSelect: (key: string) => void }) {
  const [match, setMatch] = useState('')
  const [type, setType] = useState<DataKeyType | 'all'>('all')
  const [filter, setFilter] = useState<DataKeysFilter>({ match: '', type: '' })
  const keys = useDataKeysQuery(projectId, instanceId, login, filter)
  const items = keys.data?.pages.flatMap((p) => p.items) ?? []

  const search = (event: FormEvent) => {
    event.preventDefault()
    setFilter({ match, type: type === 'all' ? '' : type })
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>Keys</CardTitle>
      </CardHeader>
      <CardBody className="space-y-3">
        <form className="grid gap-3 sm:grid-cols-[1fr_10rem_auto] sm:items-end" onSubmit={search}>
          <Field id="data-match" label="Key pattern" hint="A SCAN MATCH glob: user:*, session:??, *">
            <Input id="data-match" value={match} placeholder="*" onChange={(e) => setMatch(e.target.value)} className="font-mono" />
          </Field>
          <Field id="data-type" label="Type">
            <OptionsSelect id="data-type" value={type} options={TYPE_OPTIONS} onChange={setType} />
          </Field>
          <Button type="submit" variant="secondary">
            Search
          </Button>
        </form>
        {keys.error ? <Alert tone="danger">{keys.error.message}</Alert> : null}
        <Table aria-label="Keys">
          <THead>
            <tr>
              <Th>Key</Th>
              <Th>Type</Th>
              <Th>TTL</Th>
            </tr>
          </THead>
          <TBody>
            {items.map((item, i) => (
              <Tr key={`${i}:${item.key.text}`} aria-selected={selected === item.key.text}>
                <Td className="max-w-xs font-mono text-xs break-all">
                  {item.key.binary || item.key.truncated ? (
                    <span title="Not UTF-8 or too long to open here: use the command line with \\xHH escapes">{item.key.text}</span>
                  ) : (
                    <button type="button" className="text-left text-brand hover:underline" onClick={() => onSelect(item.key.text)}>
                      {item.key.text}
                    </button>
                  )}
                </Td>
                <Td>{TYPE_LABELS[item.type] ?? item.type}</Td>
                <Td className="text-muted">{formatTtl(item.ttl_ms)}</Td>
              </Tr>
            ))}
          </TBody>
        </Table>
        <div className="flex items-center gap-3 text-sm text-muted">
          <span aria-live="polite">{keys.isPending ? 'Scanning…' : `${items.length} keys shown${keys.hasNextPage ? '' : ' (scan complete)'}`}</span>
          {keys.hasNextPage ? (
            <Button variant="secondary" size="sm" disabled={keys.isFetchingNextPage} onClick={() => keys.fetchNextPage()}>
              {keys.isFetchingNextPage ? 'Loading…' : 'Load more keys'}
            </Button>
          ) : null}
        </div>
      </CardBody>
    </Card>
  )
}
