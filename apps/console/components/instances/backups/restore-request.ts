// The create request of a restore from the Backups tab: a new instance shaped like its source
// (region, architecture, disk, TLS, allowlist, parameters, backup settings) under a new name
// and the chosen type, started from a backup or from a point in time of the source.
import type { InstanceType } from '@/data/catalog/instance-types-query'
import type { AllowlistEntry } from '@/data/allowlist/allowlist-query'
import type { InstanceCreateVariables } from '@/data/instances/instance-create-mutation'
import type { Instance } from '@/data/instances/instance-query'
import { ENGINE_VERSION } from '../create/validation'

export type RestoreFrom = NonNullable<InstanceCreateVariables['restore_from']>

type Source = Pick<
  Instance,
  'region' | 'disk_gib' | 'tls_enabled' | 'architecture' | 'replicas' | 'parameters' | 'backup_window' | 'backup_retention_days'
>

/** The source's disk when the type takes it, else the type's smallest (the API checks the data fits). */
export function restoredDiskGib(sourceDiskGib: number, type: Pick<InstanceType, 'disk_gib_min' | 'disk_gib_max'> | undefined): number | undefined {
  if (!type) return undefined
  return Math.min(Math.max(sourceDiskGib, type.disk_gib_min), type.disk_gib_max)
}

export function restoreRequest(
  source: Source,
  target: { name: string; type: InstanceType | undefined; instanceType: string },
  restoreFrom: RestoreFrom,
  allowlist: AllowlistEntry[],
): InstanceCreateVariables {
  const standard = source.architecture === 'standard'
  const disk = restoredDiskGib(source.disk_gib, target.type)
  // The source's connection limit only where the new type allows it; the rest carries over.
  const { maxclients, ...rest } = source.parameters
  const keepsLimit = maxclients !== undefined && (!target.type || maxclients <= target.type.max_connections)
  const parameters = { ...rest, ...(keepsLimit ? { maxclients } : {}) }
  return {
    name: target.name.trim(),
    engine_version: ENGINE_VERSION,
    instance_type: target.instanceType,
    region: source.region,
    ...(disk !== undefined ? { disk_gib: disk } : {}),
    ...(standard ? { architecture: 'standard' as const, replicas: source.replicas } : {}),
    tls_enabled: source.tls_enabled,
    allowlist: allowlist.map((e) => ({ cidr: e.cidr, description: e.description })),
    ...(Object.keys(parameters).length ? { parameters } : {}),
    backup_window: source.backup_window,
    backup_retention_days: source.backup_retention_days,
    restore_from: restoreFrom,
  }
}
