'use client'
import { PageHeader } from '@/components/layout/page-header'
import { Alert } from '@/components/ui/alert'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { Table, TBody, Td, Th, THead, Tr } from '@/components/ui/table'
import { formatDateTime } from '@/components/instances/format'
import { useAuditLogQuery, type AuditEntry } from '@/data/audit/audit-log-query'
import { useProjectMembersQuery } from '@/data/projects/project-members-query'

function who(entry: AuditEntry, emails: Map<string, string> | null): string {
  // Members are listed by e-mail; anyone no longer a member is shown by the start of their ID.
  const user = !entry.user_id ? 'anonymous' : !emails ? '…' : (emails.get(entry.user_id) ?? `user ${entry.user_id.slice(0, 8)}`)
  return entry.api_key_id ? `${user} (API key)` : user
}

/** Every change made in the project: who, what, when, with the request ID support asks for. */
export function ActivityPage({ projectId }: { projectId: string }) {
  const log = useAuditLogQuery(projectId)
  const members = useProjectMembersQuery(projectId)
  const emails = members.data ? new Map(members.data.map((m) => [m.user_id, m.email])) : members.error ? new Map<string, string>() : null
  return (
    <>
      <PageHeader title="Activity" description="Every change made in this project, newest first." />
      <main className="space-y-4 px-8 py-6">
        {log.error ? <Alert tone="danger">Could not load the activity: {log.error.message}</Alert> : null}
        <Card>
          {log.isPending ? (
            <p className="px-5 py-10 text-center text-sm text-muted">Loading activity…</p>
          ) : !log.data?.length ? (
            <p className="px-5 py-10 text-center text-sm text-muted">Nothing has changed in this project yet.</p>
          ) : (
            <Table aria-label="Activity">
              <THead>
                <tr>
                  <Th>When</Th>
                  <Th>Who</Th>
                  <Th>Action</Th>
                  <Th>Result</Th>
                  <Th>Request ID</Th>
                </tr>
              </THead>
              <TBody>
                {log.data.map((entry) => (
                  <Tr key={entry.id}>
                    <Td className="whitespace-nowrap text-muted">{formatDateTime(entry.created_at)}</Td>
                    <Td>{who(entry, emails)}</Td>
                    <Td className="font-mono text-xs">{entry.action}</Td>
                    <Td>
                      <Badge tone={entry.status_code < 400 ? 'success' : 'danger'}>{entry.status_code}</Badge>
                    </Td>
                    <Td className="font-mono text-xs text-muted">{entry.request_id}</Td>
                  </Tr>
                ))}
              </TBody>
            </Table>
          )}
        </Card>
        {log.hasNextPage ? (
          <div className="flex justify-center">
            <Button variant="secondary" onClick={() => log.fetchNextPage()} disabled={log.isFetchingNextPage}>
              {log.isFetchingNextPage ? 'Loading…' : 'Load older activity'}
            </Button>
          </div>
        ) : null}
      </main>
    </>
  )
}
