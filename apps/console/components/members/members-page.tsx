'use client'
import { UserPlus } from 'lucide-react'
import { useState } from 'react'
import { PageHeader } from '@/components/layout/page-header'
import { formatDateTime } from '@/components/instances/format'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { Table, TBody, Td, Th, THead, Tr } from '@/components/ui/table'
import { useSessionQuery } from '@/data/auth/session-query'
import { useProjectMemberRemoveMutation } from '@/data/projects/project-member-remove-mutation'
import { useProjectMemberUpdateMutation } from '@/data/projects/project-member-update-mutation'
import { useProjectMembersQuery } from '@/data/projects/project-members-query'
import { useProjectRole } from '@/data/projects/projects-query'
import { AddMemberDialog } from './add-member-dialog'
import { CreateUserDialog } from './create-user-dialog'
import { RoleSelect } from './role-select'

export function MembersPage({ projectId }: { projectId: string }) {
  const { data: session } = useSessionQuery()
  const { data: members, error, isPending } = useProjectMembersQuery(projectId)
  const update = useProjectMemberUpdateMutation(projectId)
  const remove = useProjectMemberRemoveMutation(projectId)
  const [adding, setAdding] = useState(false)
  const [creatingUser, setCreatingUser] = useState(false)
  const [createdEmail, setCreatedEmail] = useState<string | null>(null)
  const me = session?.user
  const myRole = useProjectRole(projectId)
  const isOwner = myRole === 'owner'
  const problem = update.error ?? remove.error

  return (
    <>
      <PageHeader
        title="Members"
        description="Who can see and change this project. Owners manage members; viewers only read."
        actions={
          <>
            {me?.is_admin ? (
              <Button variant="secondary" onClick={() => setCreatingUser(true)}>
                Create user
              </Button>
            ) : null}
            <Button onClick={() => setAdding(true)} disabled={!isOwner}>
              <UserPlus className="size-4" aria-hidden /> Add member
            </Button>
          </>
        }
      />
      <main className="space-y-4 px-8 py-6">
        {createdEmail ? <Alert tone="success">User {createdEmail} created. Add them to this project with Add member.</Alert> : null}
        {error ? <Alert tone="danger">Could not load members: {error.message}</Alert> : null}
        {problem ? <Alert tone="danger">{problem.message}</Alert> : null}
        <Card>
          {isPending ? (
            <p className="px-5 py-10 text-center text-sm text-muted">Loading members…</p>
          ) : (
            <Table aria-label="Members">
              <THead>
                <tr>
                  <Th>E-mail</Th>
                  <Th>Name</Th>
                  <Th>Role</Th>
                  <Th>Member since</Th>
                  <Th className="text-right">Actions</Th>
                </tr>
              </THead>
              <TBody>
                {members?.map((member) => {
                  const self = member.user_id === me?.id
                  return (
                    <Tr key={member.user_id}>
                      <Td>
                        {member.email}
                        {self ? <span className="ml-1.5 text-xs text-muted">(you)</span> : null}
                      </Td>
                      <Td>{member.name || '—'}</Td>
                      <Td>
                        <RoleSelect
                          label={`Role of ${member.email}`}
                          value={member.role}
                          disabled={!isOwner || update.isPending}
                          onChange={(role) => update.mutate({ user: member.user_id, role })}
                        />
                      </Td>
                      <Td className="text-muted">{formatDateTime(member.created_at)}</Td>
                      <Td className="text-right">
                        {isOwner || self ? (
                          <Button
                            variant="ghost"
                            size="sm"
                            className="text-danger"
                            aria-label={self ? 'Leave this project' : `Remove ${member.email}`}
                            disabled={remove.isPending}
                            onClick={() => {
                              const question = self ? 'Leave this project?' : `Remove ${member.email} from this project?`
                              if (window.confirm(question)) remove.mutate(member.user_id)
                            }}
                          >
                            {self ? 'Leave' : 'Remove'}
                          </Button>
                        ) : null}
                      </Td>
                    </Tr>
                  )
                })}
              </TBody>
            </Table>
          )}
        </Card>
      </main>
      <AddMemberDialog projectId={projectId} open={adding} onOpenChange={setAdding} />
      <CreateUserDialog open={creatingUser} onOpenChange={setCreatingUser} onCreated={setCreatedEmail} />
    </>
  )
}
