'use client'
import { useState } from 'react'
import { Alert } from '@/components/ui/alert'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card, CardBody, CardHeader, CardTitle } from '@/components/ui/card'
import { useDataDeleteMutation } from '@/data/data-browser/data-change-mutations'
import { useDataValueQuery } from '@/data/data-browser/data-value-query'
import { formatBytes, formatNumber } from '../../format'
import type { BrowserProps } from './data-browser'
import { formatTtl, TYPE_LABELS } from './data-format'
import { TtlEditor } from './ttl-editor'
import { ValueView } from './value-view'

/** One key: its type, TTL, memory and size, its value page by page, and (unless read-only) its edits. */
export function ValuePanel(props: BrowserProps & { dataKey: string; onDeleted: () => void }) {
  const { projectId, instanceId, login, dataKey, readOnly, onDeleted } = props
  const value = useDataValueQuery(projectId, instanceId, login, dataKey)
  const remove = useDataDeleteMutation(projectId, instanceId, login)
  const [confirming, setConfirming] = useState(false)
  const first = value.data?.pages[0]

  return (
    <Card aria-label={`Key ${dataKey}`} role="region">
      <CardHeader>
        <CardTitle className="font-mono break-all">{dataKey}</CardTitle>
        {first ? <Badge>{TYPE_LABELS[first.type] ?? first.type}</Badge> : null}
      </CardHeader>
      <CardBody className="space-y-4">
        {value.error ? <Alert tone="danger">{value.error.message}</Alert> : null}
        {value.isPending ? <p className="text-sm text-muted">Reading the key…</p> : null}
        {first ? (
          <>
            <dl className="grid grid-cols-3 gap-3 text-sm">
              <div>
                <dt className="text-muted">TTL</dt>
                <dd aria-label="TTL">{formatTtl(first.ttl_ms)}</dd>
              </div>
              <div>
                <dt className="text-muted">Memory</dt>
                <dd aria-label="Memory">{first.memory_bytes === null ? '—' : formatBytes(first.memory_bytes)}</dd>
              </div>
              <div>
                <dt className="text-muted">{first.type === 'string' ? 'Length' : 'Elements'}</dt>
                <dd aria-label="Length">
                  {formatNumber(first.length)}
                  {first.type === 'string' ? ' bytes' : ''}
                </dd>
              </div>
            </dl>
            {readOnly ? null : <TtlEditor {...props} />}
            <ValueView {...props} pages={value.data!.pages} />
            {value.hasNextPage ? (
              <Button variant="secondary" size="sm" disabled={value.isFetchingNextPage} onClick={() => value.fetchNextPage()}>
                {value.isFetchingNextPage ? 'Loading…' : 'Load more'}
              </Button>
            ) : null}
            {readOnly ? null : (
              <div className="flex items-center gap-2 border-t border-border pt-3">
                {confirming ? (
                  <>
                    <span className="text-sm">Delete {dataKey}? This cannot be undone.</span>
                    <Button variant="danger" size="sm" disabled={remove.isPending} onClick={() => remove.mutate(dataKey, { onSuccess: onDeleted })}>
                      Delete key
                    </Button>
                    <Button variant="ghost" size="sm" onClick={() => setConfirming(false)}>
                      Cancel
                    </Button>
                  </>
                ) : (
                  <Button variant="secondary" size="sm" onClick={() => setConfirming(true)}>
                    Delete…
                  </Button>
                )}
                {remove.error ? <span className="text-xs text-danger">{remove.error.message}</span> : null}
              </div>
            )}
          </>
        ) : null}
      </CardBody>
    </Card>
  )
}
