'use client'
import { Plus } from 'lucide-react'
import { useState } from 'react'
import { PageHeader } from '@/components/layout/page-header'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { SecretOnce } from '@/components/instances/detail/secret-once'
import { useApiKeysQuery } from '@/data/api-keys/api-keys-query'
import type { ApiKeyCreateResult } from '@/data/api-keys/api-key-create-mutation'
import { ApiKeysTable } from './api-keys-table'
import { CreateApiKeyDialog } from './create-api-key-dialog'

export function ApiKeysPage() {
  const { data: keys, error, isPending } = useApiKeysQuery()
  const [creating, setCreating] = useState(false)
  const [created, setCreated] = useState<ApiKeyCreateResult | null>(null)
  return (
    <>
      <PageHeader
        title="API keys"
        description="Keys for scripts and Terraform: send them as Authorization: Bearer <key>. They act as you in every project you belong to."
        actions={
          <Button onClick={() => setCreating(true)}>
            <Plus className="size-4" aria-hidden /> Create API key
          </Button>
        }
      />
      <main className="space-y-4 px-8 py-6">
        {created ? <SecretOnce label={`API key ${created.api_key.name}`} value={created.key} what="API key" /> : null}
        {error ? <Alert tone="danger">Could not load API keys: {error.message}</Alert> : null}
        <Card>
          {isPending ? (
            <p className="px-5 py-10 text-center text-sm text-muted">Loading API keys…</p>
          ) : keys?.length ? (
            <ApiKeysTable keys={keys} />
          ) : (
            <p className="px-5 py-10 text-center text-sm text-muted">No API keys yet.</p>
          )}
        </Card>
      </main>
      <CreateApiKeyDialog open={creating} onOpenChange={setCreating} onCreated={setCreated} />
    </>
  )
}
