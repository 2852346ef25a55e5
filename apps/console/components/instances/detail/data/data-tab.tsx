'use client'
// The instance page's Data tab (issue 46), loaded only when opened: the switch that turns the
// data browser on or off for the instance, then a login as one of its database users, then the
// browser. The password is kept in this component's state only: leaving the tab forgets it.
import { useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { Alert } from '@/components/ui/alert'
import { Card, CardHeader, CardTitle } from '@/components/ui/card'
import { Switch } from '@/components/ui/switch'
import type { DataAccess } from '@/data/data-browser/data-access-mutation'
import type { DatabaseLogin } from '@/data/data-browser/credentials'
import type { Instance } from '@/data/instances/instance-query'
import { useInstanceUpdateMutation } from '@/data/instances/instance-update-mutation'
import { queryKeys } from '@/data/keys'
import { DataBrowser } from './data-browser'
import { DataLoginForm } from './data-login-form'

function DataBrowserSwitch({ projectId, instance }: { projectId: string; instance: Instance }) {
  const update = useInstanceUpdateMutation(projectId, instance.id)
  const on = update.isPending ? Boolean(update.variables?.data_browser_enabled) : instance.data_browser_enabled
  return (
    <span className="flex items-center gap-2 text-sm">
      <Switch aria-label="Data browser" checked={on} disabled={update.isPending} onCheckedChange={(data_browser_enabled) => update.mutate({ data_browser_enabled })} />
      <span>{on ? 'On' : 'Off'}</span>
      {update.error ? <span className="text-xs text-danger">{update.error.message}</span> : null}
    </span>
  )
}

export function DataTab({ projectId, instance }: { projectId: string; instance: Instance }) {
  const queryClient = useQueryClient()
  const [session, setSession] = useState<{ login: DatabaseLogin; access: DataAccess } | null>(null)
  const logOut = () => {
    setSession(null)
    // Values read as that user leave the cache with the password.
    queryClient.removeQueries({ queryKey: queryKeys.instances.data(projectId, instance.id) })
  }
  const live = instance.status === 'running' || instance.status === 'modifying'

  return (
    <div className="space-y-4">
      <Card>
        <CardHeader>
          <div>
            <CardTitle>Data browser</CardTitle>
            <p className="text-sm text-muted">
              Keys, values and a command line, as a database user you log in as. The control plane connects to the instance for each request; the password stays in this page.
            </p>
          </div>
          <DataBrowserSwitch projectId={projectId} instance={instance} />
        </CardHeader>
      </Card>
      {!instance.data_browser_enabled ? (
        <Alert>The data browser is off for this instance: the control plane opens no connection to it for browsing. Turn it on above to use it.</Alert>
      ) : !live ? (
        <Alert>The instance is {instance.status}: the data browser reads the running engine.</Alert>
      ) : session ? (
        <DataBrowser projectId={projectId} instanceId={instance.id} login={session.login} access={session.access} onLogOut={logOut} />
      ) : (
        <DataLoginForm projectId={projectId} instanceId={instance.id} onLoggedIn={(login, access) => setSession({ login, access })} />
      )}
    </div>
  )
}
