// Checks the create-instance form before it is sent, with the same rules the API applies,
// so most mistakes are named next to their field instead of coming back as a 400.
import type { InstanceType } from '@/data/catalog/instance-types-query'

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
}

export type InstanceFormErrors = Partial<Record<'name' | 'instanceType' | 'region' | 'diskGib' | 'password' | 'allowlist', string>>

export const NAME_PATTERN = /^[a-z]([a-z0-9-]{0,61}[a-z0-9])?$/
export const PASSWORD_MIN = 12
export const PASSWORD_MAX = 128
export const ALLOWLIST_MAX = 1000

function ipv4Ok(address: string): boolean {
  const parts = address.split('.')
  return parts.length === 4 && parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255 && String(Number(p)) === p)
}

function ipv6Ok(address: string): boolean {
  if (!/^[0-9a-fA-F:.]+$/.test(address) || !address.includes(':')) return false
  const doubleColons = address.split('::').length - 1
  if (doubleColons > 1) return false
  const groups = address.split(':').filter((g) => g !== '')
  if (groups.some((g) => g.length > 4 && !ipv4Ok(g))) return false
  return doubleColons === 1 ? groups.length < 8 : groups.length === 8
}

/** A valid IPv4 or IPv6 CIDR such as 10.0.0.0/8 or 2001:db8::/32; a bare address counts as /32 or /128. */
export function isCidr(value: string): boolean {
  const [address, prefix, extra] = value.trim().split('/')
  if (extra !== undefined || !address) return false
  const v4 = ipv4Ok(address)
  const v6 = !v4 && ipv6Ok(address)
  if (!v4 && !v6) return false
  if (prefix === undefined) return true
  if (!/^\d{1,3}$/.test(prefix)) return false
  return Number(prefix) <= (v4 ? 32 : 128)
}

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
    else if (/\s/.test(values.password)) errors.password = 'Spaces are not allowed in the password.'
  }

  const rows = values.allowlist.filter((row) => row.cidr.trim() || row.description.trim())
  if (rows.length > ALLOWLIST_MAX) errors.allowlist = `At most ${ALLOWLIST_MAX} entries.`
  const bad = rows.find((row) => !isCidr(row.cidr))
  if (bad) errors.allowlist = `“${bad.cidr || '(empty)'}” is not an IP address or CIDR block.`
  const seen = new Set<string>()
  for (const row of rows) {
    const cidr = row.cidr.trim()
    if (seen.has(cidr)) errors.allowlist = `${cidr} is listed twice.`
    seen.add(cidr)
  }
  return errors
}

/** The request body for `POST /instances` from valid form values. */
export function toCreateRequest(values: InstanceFormValues) {
  return {
    name: values.name.trim(),
    instance_type: values.instanceType,
    region: values.region,
    disk_gib: Number(values.diskGib),
    ...(values.customPassword ? { password: values.password } : {}),
    allowlist: values.allowlist
      .filter((row) => row.cidr.trim())
      .map((row) => ({ cidr: row.cidr.trim(), ...(row.description.trim() ? { description: row.description.trim() } : {}) })),
    tls_enabled: values.tlsEnabled,
    deletion_protection: values.deletionProtection,
  }
}
