'use client'
import { Switch } from '@/components/ui/switch'
import { useInstanceUpdateMutation } from '@/data/instances/instance-update-mutation'
import type { Instance } from '@/data/instances/instance-query'

/** Turns deletion protection on or off in place (PATCH), as the delete dialog asks for. */
export function DeletionProtectionSwitch({ projectId, instance }: { projectId: string; instance: Instance }) {
  const update = useInstanceUpdateMutation(projectId, instance.id)
  const on = update.isPending ? Boolean(update.variables?.deletion_protection) : instance.deletion_protection
  return (
    <span className="flex flex-wrap items-center gap-2">
      <Switch
        aria-label="Deletion protection"
        checked={on}
        disabled={update.isPending || instance.status === 'deleting' || instance.status === 'deleted'}
        onCheckedChange={(deletion_protection) => update.mutate({ deletion_protection })}
      />
      <span>{on ? 'On' : 'Off'}</span>
      {update.error ? <span className="text-xs text-danger">{update.error.message}</span> : null}
    </span>
  )
}
