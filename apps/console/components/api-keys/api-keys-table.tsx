'use client'
import { Alert } from '@/components/ui/alert'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Table, TBody, Td, Th, THead, Tr } from '@/components/ui/table'
import { formatDateTime, formatRelative } from '@/components/instances/format'
import type { ApiKey } from '@/data/api-keys/api-keys-query'
import { useApiKeyRevokeMutation } from '@/data/api-keys/api-key-revoke-mutation'

export function ApiKeysTable({ keys }: { keys: ApiKey[] }) {
  const revoke = useApiKeyRevokeMutation()
  return (
    <>
      {revoke.error ? <Alert tone="danger" className="m-3">{revoke.error.message}</Alert> : null}
      <Table aria-label="API keys">
        <THead>
          <tr>
            <Th>Name</Th>
            <Th>Key</Th>
            <Th>Created</Th>
            <Th>Last used</Th>
            <Th>Status</Th>
            <Th className="text-right">Actions</Th>
          </tr>
        </THead>
        <TBody>
          {keys.map((key) => (
            <Tr key={key.id}>
              <Td className="font-medium">{key.name}</Td>
              <Td className="font-mono text-xs text-muted">{key.prefix ? `${key.prefix}…` : '—'}</Td>
              <Td className="text-muted">{formatDateTime(key.created_at)}</Td>
              <Td className="text-muted">{key.last_used_at ? formatRelative(key.last_used_at) : 'Never'}</Td>
              <Td>{key.revoked_at ? <Badge>Revoked</Badge> : <Badge tone="success">Active</Badge>}</Td>
              <Td className="text-right">
                {key.revoked_at ? null : (
                  <Button
                    variant="ghost"
                    size="sm"
                    className="text-danger"
                    aria-label={`Revoke API key ${key.name}`}
                    disabled={revoke.isPending}
                    onClick={() => {
                      if (window.confirm(`Revoke ${key.name}? Scripts using it stop working at once.`)) revoke.mutate(key.id)
                    }}
                  >
                    Revoke
                  </Button>
                )}
              </Td>
            </Tr>
          ))}
        </TBody>
      </Table>
    </>
  )
}
