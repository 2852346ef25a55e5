// Checks the create-instance form before it is sent, with the rules the API applies (the same
// module: @basalt/api-client/rules), so most mistakes are named next to their field instead of
// coming back as a 400.
import type { RestoreWindow } from '@/data/backups/restore-window-query'
import type { InstanceType } from '@/data/catalog/instance-types-query'
import type { InstanceCreateVariables } from '@/data/instances/instance-create-mutation'
import {
  ALLOWLIST_MAX,
  DB_PASSWORD,
  DB_PASSWORD_MAX,
  DB_PASSWORD_MIN,
  INSTANCE_NAME,
  normaliseCidr,
  parseTopology,
  TAG_KEY,
  TAG_VALUE_MAX,
  TAGS_MAX,
} from '@basalt/api-client/rules'
import { toBackupSettings, validateBackupSettings } from '../backups/backup-settings'
import { inputToPoint, pointProblem } from '../backups/restore-point'

export interface AllowlistRow {
  cidr: string
  description: string
}

export interface InstanceFormValues {
  name: string
  instanceType: string
  region: string
  diskGib: string
  customPassword: boolean
  password: string
  allowlist: AllowlistRow[]
  tlsEnabled: boolean
  deletionProtection: boolean
  /** `default` leaves the engine's default in place. */
  fsync: 'default' | FsyncPolicy
  /** One `key=value` per line. */
  tags: string
  architecture: 'standalone' | 'standard'
  /** Replicas of a standard instance, as the select holds it. */
  replicas: string
  replicationMode: 'sync' | 'async'
  /** Where the data comes from: nothing, a backup, or an instance at a point in time. */
  startFrom: StartFrom
  /** The instance whose backup or point in time is restored. */
  restoreSourceId: string
  restoreBackupId: string
  /** A `datetime-local` value, read as UTC. */
  restorePoint: string
  /** The uploaded RDB file's id (POST …/rdb-imports), once its upload has finished. */
  rdbImportId: string
  /** `HH:MM-HH:MM`, UTC. */
  backupWindow: string
  retentionDays: string
}

export type StartFrom = 'empty' | 'backup' | 'point' | 'rdb'

export type FsyncPolicy = NonNullable<NonNullable<InstanceCreateVariables['parameters']>['fsync']>

export const FSYNC_POLICIES: { value: FsyncPolicy; label: string }[] = [
  { value: 'always', label: 'always — every write is on disk before the reply' },
  { value: 'everysec', label: 'everysec — at most one second of writes at risk' },
  { value: 'no', label: 'no — the operating system decides' },
]

/** `key=value` lines into a tags map, or the first problem found. */
export function parseTags(text: string): { tags: Record<string, string> } | { error: string } {
  const tags: Record<string, string> = {}
  const lines = text.split('\n').map((l) => l.trim()).filter(Boolean)
  if (lines.length > TAGS_MAX) return { error: `At most ${TAGS_MAX} tags.` }
  for (const line of lines) {
    const at = line.indexOf('=')
    const key = (at < 0 ? line : line.slice(0, at)).trim()
    const value = at < 0 ? '' : line.slice(at + 1).trim()
    if (!TAG_KEY.test(key)) return { error: `“${key}” is not a tag key: 1–64 letters, digits or _ . : / + @ -.` }
    if (value.length > TAG_VALUE_MAX) return { error: `The value of ${key} is longer than ${TAG_VALUE_MAX} characters.` }
    if (key in tags) return { error: `${key} is tagged twice.` }
    tags[key] = value
  }
  return { tags }
}

export type InstanceFormErrors = Partial<
  Record<
    'name' | 'instanceType' | 'region' | 'diskGib' | 'password' | 'allowlist' | 'tags' | 'architecture' | 'restoreSource' | 'restoreBackup' | 'restorePoint' | 'rdbFile' | 'backupWindow' | 'retentionDays',
    string
  >
>

export { ALLOWLIST_MAX }
export const PASSWORD_MIN = DB_PASSWORD_MIN
export const PASSWORD_MAX = DB_PASSWORD_MAX

/**
 * A valid allowlist CIDR such as 10.0.0.0/8 or 2001:db8::/32 (the API's own parser, from
 * @basalt/api-client/rules): host bits zero; a bare address means one host.
 */
export function isCidr(value: string): boolean {
  return normaliseCidr(value) !== undefined
}

/** Why `text` is not an instance name (the API's INSTANCE_NAME), or null. */
export function instanceNameProblem(text: string): string | null {
  const name = text.trim()
  if (!name) return 'Give the instance a name.'
  if (!INSTANCE_NAME.test(name)) return 'Use 1–63 lowercase letters, digits and hyphens, starting with a letter and not ending with a hyphen.'
  return null
}

/** `restoreWindow`: the chosen source's, for a point in time (undefined while it loads). */
export function validateInstanceForm(values: InstanceFormValues, type: InstanceType | undefined, restoreWindow?: RestoreWindow): InstanceFormErrors {
  const errors: InstanceFormErrors = { ...validateBackupSettings(values), ...restoreErrors(values, restoreWindow) }
  const name = instanceNameProblem(values.name)
  if (name) errors.name = name

  if (!values.instanceType || !type) errors.instanceType = 'Choose an instance type.'
  if (!values.region) errors.region = 'Choose a region.'
  else if (type && type.regions.length && !type.regions.includes(values.region))
    errors.region = `${type.id} is not offered in ${values.region}.`

  const disk = Number(values.diskGib)
  if (!values.diskGib.trim() || !Number.isInteger(disk)) errors.diskGib = 'Enter the disk size as a whole number of GiB.'
  else if (type && (disk < type.disk_gib_min || disk > type.disk_gib_max))
    errors.diskGib = `${type.id} takes ${type.disk_gib_min}–${type.disk_gib_max} GiB of disk.`

  if (values.customPassword) {
    const length = values.password.length
    if (length < PASSWORD_MIN || length > PASSWORD_MAX)
      errors.password = `Use ${PASSWORD_MIN}–${PASSWORD_MAX} characters.`
    else if (!DB_PASSWORD.test(values.password))
      errors.password = 'Use printable ASCII without spaces, quotes, slashes or backslashes.'
  }

  const rows = values.allowlist.filter((row) => row.cidr.trim() || row.description.trim())
  if (rows.length > ALLOWLIST_MAX) errors.allowlist = `At most ${ALLOWLIST_MAX} entries.`
  const bad = rows.find((row) => !isCidr(row.cidr))
  if (bad) errors.allowlist = `“${bad.cidr || '(empty)'}” is not an IP address or CIDR block with its host bits zero.`
  const tags = parseTags(values.tags)
  if ('error' in tags) errors.tags = tags.error
  const topology = parseTopology(topologyInput(values))
  if ('problems' in topology) errors.architecture = topology.problems.map((p) => `${p.field} ${p.problem}.`).join(' ')
  const seen = new Set<string>()
  for (const row of rows) {
    const cidr = row.cidr.trim()
    if (seen.has(cidr)) errors.allowlist = `${cidr} is listed twice.`
    seen.add(cidr)
  }
  return errors
}

function restoreErrors(values: InstanceFormValues, restoreWindow: RestoreWindow | undefined): InstanceFormErrors {
  if (values.startFrom === 'empty') return {}
  if (values.startFrom === 'rdb') return values.rdbImportId ? {} : { rdbFile: 'Upload an RDB file (a dump.rdb made by Redis 7).' }
  if (!values.restoreSourceId) return { restoreSource: 'Choose the instance to restore from.' }
  if (values.startFrom === 'backup') return values.restoreBackupId ? {} : { restoreBackup: 'Choose a succeeded backup.' }
  const problem = pointProblem(values.restorePoint, restoreWindow)
  return problem ? { restorePoint: problem } : {}
}

/** The engine version new instances run; the API offers one so far. */
export const ENGINE_VERSION = '1.0' as const

function topologyInput(values: InstanceFormValues) {
  const standard = values.architecture === 'standard'
  return {
    architecture: values.architecture,
    ...(standard ? { replicas: Number(values.replicas), replication_mode: values.replicationMode } : {}),
  }
}

/** The request body for `POST /instances` from valid form values. */
export function toCreateRequest(values: InstanceFormValues): InstanceCreateVariables {
  const standard = values.architecture === 'standard'
  const parameters = {
    ...(values.fsync !== 'default' ? { fsync: values.fsync } : {}),
    ...(standard ? { replication_mode: values.replicationMode } : {}),
  }
  return {
    name: values.name.trim(),
    engine_version: ENGINE_VERSION,
    instance_type: values.instanceType,
    region: values.region,
    disk_gib: Number(values.diskGib),
    ...(values.customPassword ? { password: values.password } : {}),
    allowlist: values.allowlist
      .filter((row) => row.cidr.trim())
      .map((row) => ({ cidr: row.cidr.trim(), description: row.description.trim() })),
    tls_enabled: values.tlsEnabled,
    deletion_protection: values.deletionProtection,
    ...(standard ? { architecture: 'standard' as const, replicas: Number(values.replicas) } : {}),
    ...(Object.keys(parameters).length ? { parameters } : {}),
    ...toBackupSettings(values),
    ...(values.startFrom === 'backup' ? { restore_from: { backup_id: values.restoreBackupId } } : {}),
    ...(values.startFrom === 'rdb' ? { restore_from: { rdb_import_id: values.rdbImportId } } : {}),
    ...(values.startFrom === 'point'
      ? { restore_from: { source_instance_id: values.restoreSourceId, point_in_time: inputToPoint(values.restorePoint)! } }
      : {}),
    ...(() => {
      const parsed = parseTags(values.tags)
      return 'tags' in parsed && Object.keys(parsed.tags).length ? { tags: parsed.tags } : {}
    })(),
  }
}
