'use client'
import { useEffect, useState } from 'react'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Card, CardBody, CardHeader, CardTitle } from '@/components/ui/card'
import { useAllowlistQuery } from '@/data/allowlist/allowlist-query'
import { useAllowlistReplaceMutation } from '@/data/allowlist/allowlist-replace-mutation'
import { AllowlistEditor } from '../create/allowlist-editor'
import { ALLOWLIST_MAX, isCidr, type AllowlistRow } from '../create/validation'

/** `locked`: why the allowlist cannot change now (the API refuses it), shown instead of saving. */
export function AllowlistTab({ projectId, instanceId, locked }: { projectId: string; instanceId: string; locked?: string }) {
  const { data: allowlist, error, isPending } = useAllowlistQuery(projectId, instanceId)
  const replace = useAllowlistReplaceMutation(projectId, instanceId)
  const [rows, setRows] = useState<AllowlistRow[]>([])
  const [invalid, setInvalid] = useState<string>()

  useEffect(() => {
    if (allowlist) setRows(allowlist.items.map((e) => ({ cidr: e.cidr, description: e.description })))
  }, [allowlist])

  const save = () => {
    const filled = rows.filter((r) => r.cidr.trim())
    const bad = filled.find((r) => !isCidr(r.cidr))
    if (bad) return setInvalid(`“${bad.cidr}” is not an IP address or CIDR block.`)
    if (filled.length > ALLOWLIST_MAX) return setInvalid(`At most ${ALLOWLIST_MAX} entries.`)
    setInvalid(undefined)
    replace.mutate(filled.map((r) => ({ cidr: r.cidr.trim(), description: r.description.trim() })))
  }

  if (error) return <Alert tone="danger">Could not load the allowlist: {error.message}</Alert>
  return (
    <Card className="max-w-3xl">
      <CardHeader>
        <CardTitle>IP allowlist</CardTitle>
      </CardHeader>
      <CardBody className="space-y-4">
        {isPending ? (
          <p className="text-sm text-muted">Loading allowlist…</p>
        ) : (
          <AllowlistEditor rows={rows} onChange={setRows} error={invalid} />
        )}
        {locked ? <Alert>{locked}</Alert> : null}
        {replace.error ? <Alert tone="danger">{replace.error.message}</Alert> : null}
        {replace.isSuccess ? <Alert tone="success">Allowlist saved; the change is applied to the instance.</Alert> : null}
        <div className="flex justify-end">
          <Button onClick={save} disabled={!!locked || replace.isPending || isPending}>
            Save allowlist
          </Button>
        </div>
      </CardBody>
    </Card>
  )
}
