// Checks the create-instance form before it is sent, with the same rules the API applies,
// so most mistakes are named next to their field instead of coming back as a 400.
import type { InstanceType } from '@/data/catalog/instance-types-query'
import type { InstanceCreateVariables } from '@/data/instances/instance-create-mutation'

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
  maxmemoryPolicy: 'default' | MaxmemoryPolicy
  /** One `key=value` per line. */
  tags: string
}

export type FsyncPolicy = NonNullable<NonNullable<InstanceCreateVariables['parameters']>['fsync']>
export type MaxmemoryPolicy = NonNullable<NonNullable<InstanceCreateVariables['parameters']>['maxmemory_policy']>

export const FSYNC_POLICIES: { value: FsyncPolicy; label: string }[] = [
  { value: 'always', label: 'always — every write is on disk before the reply' },
  { value: 'everysec', label: 'everysec — at most one second of writes at risk' },
  { value: 'no', label: 'no — the operating system decides' },
]

export const MAXMEMORY_POLICIES: MaxmemoryPolicy[] = [
  'noeviction',
  'allkeys-lru',
  'allkeys-lfu',
  'allkeys-random',
  'volatile-lru',
  'volatile-lfu',
  'volatile-random',
  'volatile-ttl',
]

export const TAG_KEY = /^[A-Za-z0-9_.:/+@-]{1,64}$/
export const TAGS_MAX = 50

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
    if (value.length > 256) return { error: `The value of ${key} is longer than 256 characters.` }
    if (key in tags) return { error: `${key} is tagged twice.` }
    tags[key] = value
  }
  return { tags }
}

export type InstanceFormErrors = Partial<Record<'name' | 'instanceType' | 'region' | 'diskGib' | 'password' | 'allowlist' | 'tags', string>>

export const NAME_PATTERN = /^[a-z]([a-z0-9-]{0,61}[a-z0-9])?$/
export const PASSWORD_MIN = 12
export const PASSWORD_MAX = 128
export const ALLOWLIST_MAX = 1000

function ipv4ToBigInt(address: string): bigint | undefined {
  const parts = address.split('.')
  if (parts.length !== 4 || !parts.every((p) => /^(0|[1-9]\d{0,2})$/.test(p) && Number(p) <= 255)) return undefined
  return parts.reduce((acc, p) => (acc << 8n) + BigInt(p), 0n)
}

function ipv6ToBigInt(address: string): bigint | undefined {
  let text = address.toLowerCase()
  if (!text.includes(':') || !/^[0-9a-f:.]+$/.test(text)) return undefined
  if (text.includes('.')) {
    // An embedded IPv4 tail (::ffff:10.0.0.1) counts as the last two groups.
    const lastColon = text.lastIndexOf(':')
    const v4 = ipv4ToBigInt(text.slice(lastColon + 1))
    if (v4 === undefined) return undefined
    text = `${text.slice(0, lastColon)}:${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`
  }
  const halves = text.split('::')
  if (halves.length > 2) return undefined
  const head = halves[0] ? halves[0].split(':') : []
  const tail = halves.length === 2 && halves[1] ? halves[1].split(':') : []
  const missing = 8 - head.length - tail.length
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...tail]
  if (!groups.every((g) => /^[0-9a-f]{1,4}$/.test(g))) return undefined
  return groups.reduce((acc, g) => (acc << 16n) + BigInt(parseInt(g, 16)), 0n)
}

/**
 * A valid IPv4 or IPv6 CIDR such as 10.0.0.0/8 or 2001:db8::/32, with host bits zero as a
 * firewall requires (the API's rule); a bare address means one host.
 */
export function isCidr(value: string): boolean {
  const [address, prefixText, extra] = value.trim().split('/')
  if (extra !== undefined || !address) return false
  const v4 = ipv4ToBigInt(address)
  const v6 = v4 === undefined ? ipv6ToBigInt(address) : undefined
  const ip = v4 ?? v6
  if (ip === undefined) return false
  const bits = v4 !== undefined ? 32 : 128
  if (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText)) return false
  const prefix = prefixText === undefined ? bits : Number(prefixText)
  if (prefix > bits) return false
  const hostMask = (1n << BigInt(bits - prefix)) - 1n
  return (ip & hostMask) === 0n
}

/** The API's rule for database passwords: printable ASCII without spaces, quotes or backslashes. */
export const PASSWORD_PATTERN = /^[A-Za-z0-9!#$%&()*+,\-.:;<=>?@[\]^_{|}~]+$/

export function validateInstanceForm(values: InstanceFormValues, type: InstanceType | undefined): InstanceFormErrors {
  const errors: InstanceFormErrors = {}
  const name = values.name.trim()
  if (!name) errors.name = 'Give the instance a name.'
  else if (!NAME_PATTERN.test(name))
    errors.name = 'Use 1–63 lowercase letters, digits and hyphens, starting with a letter and not ending with a hyphen.'

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
    else if (!PASSWORD_PATTERN.test(values.password))
      errors.password = 'Use printable ASCII without spaces, quotes, slashes or backslashes.'
  }

  const rows = values.allowlist.filter((row) => row.cidr.trim() || row.description.trim())
  if (rows.length > ALLOWLIST_MAX) errors.allowlist = `At most ${ALLOWLIST_MAX} entries.`
  const bad = rows.find((row) => !isCidr(row.cidr))
  if (bad) errors.allowlist = `“${bad.cidr || '(empty)'}” is not an IP address or CIDR block with its host bits zero.`
  const tags = parseTags(values.tags)
  if ('error' in tags) errors.tags = tags.error
  const seen = new Set<string>()
  for (const row of rows) {
    const cidr = row.cidr.trim()
    if (seen.has(cidr)) errors.allowlist = `${cidr} is listed twice.`
    seen.add(cidr)
  }
  return errors
}

/** The engine version new instances run; the API offers one so far. */
export const ENGINE_VERSION = '1.0' as const

/** The request body for `POST /instances` from valid form values. */
export function toCreateRequest(values: InstanceFormValues): InstanceCreateVariables {
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
    ...(values.fsync !== 'default' || values.maxmemoryPolicy !== 'default'
      ? {
          parameters: {
            ...(values.fsync !== 'default' ? { fsync: values.fsync } : {}),
            ...(values.maxmemoryPolicy !== 'default' ? { maxmemory_policy: values.maxmemoryPolicy } : {}),
          },
        }
      : {}),
    ...(() => {
      const parsed = parseTags(values.tags)
      return 'tags' in parsed && Object.keys(parsed.tags).length ? { tags: parsed.tags } : {}
    })(),
  }
}
