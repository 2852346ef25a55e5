import { describe, expect, it } from 'vitest'
import type { InstanceType } from '@/data/catalog/instance-types-query'
import { isCidr, parseTags, toCreateRequest, validateInstanceForm, type InstanceFormValues } from './validation'

const xlarge: InstanceType = {
  id: 'kv.standard.xlarge',
  size: 'xlarge',
  vcpu: 4,
  memory_gib: 16,
  disk_gib_min: 20,
  disk_gib_max: 500,
  max_connections: 20000,
  regions: ['local'],
  reference: null,
}

const valid: InstanceFormValues = {
  name: 'orders-cache',
  instanceType: xlarge.id,
  region: 'local',
  diskGib: '50',
  customPassword: false,
  password: '',
  allowlist: [{ cidr: '10.0.0.0/8', description: 'office' }],
  tlsEnabled: true,
  deletionProtection: false,
  fsync: 'default',
  tags: '',
  architecture: 'standalone',
  replicas: '1',
  replicationMode: 'sync',
  startFrom: 'empty',
  restoreSourceId: '',
  restoreBackupId: '',
  restorePoint: '',
  rdbImportId: '',
  backupWindow: '03:00-04:00',
  retentionDays: '7',
}

describe('isCidr', () => {
  it.each(['10.0.0.0/8', '192.168.1.10', '0.0.0.0/0', '2001:db8::/32', '::1', 'fe80::1/128'])(
    'accepts %s',
    (value) => expect(isCidr(value)).toBe(true),
  )
  it.each(['', '10.0.0.1/8', '192.168.1.0/16', '2001:db8::1/32', '10.0.0.0/33', '256.0.0.1', '10.0.0/8', '01.2.3.4', 'abc', '2001:db8::/129', '1::2::3', '10.0.0.0/8/1', '10.0.0.0/', '::ffff:10.0.0.1'])(
    'rejects %s',
    (value) => expect(isCidr(value)).toBe(false),
  )
})

describe('validateInstanceForm', () => {
  it('passes a complete form', () => {
    expect(validateInstanceForm(valid, xlarge)).toEqual({})
  })

  it('names each problem next to its field', () => {
    const errors = validateInstanceForm(
      { ...valid, name: 'Orders_Cache', diskGib: '10', customPassword: true, password: 'short', allowlist: [{ cidr: '10.0.0.300/8', description: '' }] },
      xlarge,
    )
    expect(errors.name).toMatch(/lowercase/)
    expect(errors.diskGib).toBe('kv.standard.xlarge takes 20–500 GiB of disk.')
    expect(errors.password).toMatch(/12–128/)
    expect(errors.allowlist).toMatch(/10\.0\.0\.300\/8/)
  })

  it('requires a type offered in the chosen region', () => {
    expect(validateInstanceForm({ ...valid, region: 'aws-eu-west-1' }, xlarge).region).toMatch(/not offered/)
    expect(validateInstanceForm({ ...valid, instanceType: '' }, undefined).instanceType).toBeDefined()
  })

  it('rejects names ending in a hyphen and duplicate allowlist entries', () => {
    expect(validateInstanceForm({ ...valid, name: 'cache-' }, xlarge).name).toBeDefined()
    const dup = [
      { cidr: '10.0.0.0/8', description: '' },
      { cidr: '10.0.0.0/8', description: 'again' },
    ]
    expect(validateInstanceForm({ ...valid, allowlist: dup }, xlarge).allowlist).toMatch(/twice/)
  })

  it('takes the API password alphabet: no spaces, quotes or backslashes', () => {
    const withPassword = (password: string) => ({ ...valid, customPassword: true, password })
    expect(validateInstanceForm(withPassword('Ab1!#$%&()*+,-.:;<=>?@[]^_{|}~'), xlarge).password).toBeUndefined()
    for (const bad of ['has a space 123', 'quote"quote"123', "apos'trophe1234", 'back\\slash12345', 'slash/slash/123'])
      expect(validateInstanceForm(withPassword(bad), xlarge).password, bad).toMatch(/printable ASCII/)
  })

  it('ignores blank allowlist rows', () => {
    expect(validateInstanceForm({ ...valid, allowlist: [{ cidr: '', description: '' }] }, xlarge)).toEqual({})
  })
})

describe('parseTags', () => {
  it('reads key=value lines, blank lines ignored', () => {
    expect(parseTags('team=web\n\n env = staging \nowner=a=b')).toEqual({ tags: { team: 'web', env: 'staging', owner: 'a=b' } })
    expect(parseTags('')).toEqual({ tags: {} })
  })
  it('names a bad key, a repeated key and too many tags', () => {
    expect(parseTags('has space=1')).toEqual({ error: expect.stringMatching(/“has space” is not a tag key/) })
    expect(parseTags('a/b:c@d+e.f_g-h=1')).toEqual({ tags: { 'a/b:c@d+e.f_g-h': '1' } })
    expect(parseTags('a=1\na=2')).toEqual({ error: 'a is tagged twice.' })
    expect(parseTags(Array.from({ length: 51 }, (_, i) => `k${i}=v`).join('\n'))).toEqual({ error: 'At most 50 tags.' })
  })
})

describe('toCreateRequest', () => {
  it('builds the API body, leaving the password out unless the user set one', () => {
    expect(toCreateRequest({ ...valid, allowlist: [...valid.allowlist, { cidr: ' ', description: '' }] })).toEqual({
      name: 'orders-cache',
      engine_version: '1.0',
      instance_type: 'kv.standard.xlarge',
      region: 'local',
      disk_gib: 50,
      allowlist: [{ cidr: '10.0.0.0/8', description: 'office' }],
      tls_enabled: true,
      deletion_protection: false,
      backup_window: '03:00-04:00',
      backup_retention_days: 7,
    })
    expect(toCreateRequest({ ...valid, fsync: 'always', tags: 'team=web' })).toMatchObject({
      parameters: { fsync: 'always' },
      tags: { team: 'web' },
    })
    expect(toCreateRequest({ ...valid, customPassword: true, password: 'a-long-enough-secret' }).password).toBe(
      'a-long-enough-secret',
    )
  })
})

describe('architecture', () => {
  it('sends architecture, replicas and replication mode for a standard instance only', () => {
    expect(toCreateRequest({ ...valid, tlsEnabled: false, architecture: 'standard', replicas: '2', replicationMode: 'async', fsync: 'always' })).toMatchObject({
      architecture: 'standard',
      replicas: 2,
      parameters: { fsync: 'always', replication_mode: 'async' },
    })
    const standalone = toCreateRequest({ ...valid, replicas: '3', replicationMode: 'async' })
    expect(standalone).not.toHaveProperty('architecture')
    expect(standalone).not.toHaveProperty('replicas')
    expect(standalone).not.toHaveProperty('parameters')
  })

  it('names what the API would refuse (the rules of @basalt/api-client/rules)', () => {
    expect(validateInstanceForm({ ...valid, architecture: 'standard', replicas: '6' }, xlarge).architecture).toMatch(/replicas must be a whole number from 1 to 5/)
    // TLS with standard: one CA per instance signs every node's certificate.
    expect(validateInstanceForm({ ...valid, architecture: 'standard' }, xlarge)).toEqual({})
    expect(validateInstanceForm({ ...valid, tlsEnabled: false, architecture: 'standard', replicas: '5' }, xlarge)).toEqual({})
  })
})

describe('start from and backup settings', () => {
  const source = '5f8e3c1e-0000-4000-8000-000000000001'
  const window = { earliest: '2026-12-01T10:00:00Z', latest: '2026-12-01T11:30:15Z', timelines: [{ timeline: 1, earliest: '2026-12-01T10:00:00Z', latest: '2026-12-01T11:30:15Z' }], gaps: [], archive_lag_seconds: 2, last_backup_at: '2026-12-01T10:00:05Z' }

  it('checks the window and retention with the shared rules and sends them', () => {
    expect(validateInstanceForm({ ...valid, backupWindow: '03:00-03:30', retentionDays: '36' }, xlarge)).toEqual({
      backupWindow: 'The backup window must be at least 60 minutes long.',
      retentionDays: 'Keep automatic backups 0–35 days (a whole number).',
    })
    expect(validateInstanceForm({ ...valid, backupWindow: '3am', retentionDays: '' }, xlarge).backupWindow).toMatch(/must be HH:MM-HH:MM/)
    expect(toCreateRequest({ ...valid, backupWindow: '23:30-01:00', retentionDays: '0' })).toMatchObject({ backup_window: '23:30-01:00', backup_retention_days: 0 })
  })

  it('restores a chosen backup', () => {
    expect(validateInstanceForm({ ...valid, startFrom: 'backup' }, xlarge)).toEqual({ restoreSource: 'Choose the instance to restore from.' })
    expect(validateInstanceForm({ ...valid, startFrom: 'backup', restoreSourceId: source }, xlarge)).toEqual({ restoreBackup: 'Choose a succeeded backup.' })
    const values = { ...valid, startFrom: 'backup' as const, restoreSourceId: source, restoreBackupId: 'b-1' }
    expect(validateInstanceForm(values, xlarge)).toEqual({})
    expect(toCreateRequest(values).restore_from).toEqual({ backup_id: 'b-1' })
  })

  it('restores a point inside the source window, to the second in UTC', () => {
    const values = { ...valid, startFrom: 'point' as const, restoreSourceId: source, restorePoint: '2026-12-01T11:30:16' }
    expect(validateInstanceForm(values, xlarge, window).restorePoint).toBe('Choose a point from 2026-12-01 10:00:00 to 2026-12-01 11:30:15 UTC.')
    expect(validateInstanceForm({ ...values, restorePoint: '2026-12-01T10:15' }, xlarge, window)).toEqual({})
    expect(toCreateRequest({ ...values, restorePoint: '2026-12-01T10:15' }).restore_from).toEqual({ source_instance_id: source, point_in_time: '2026-12-01T10:15:00Z' })
    expect(toCreateRequest({ ...valid, restoreSourceId: source, restorePoint: '2026-12-01T10:15' })).not.toHaveProperty('restore_from')
  })

  it('starts from an uploaded RDB file once its upload has finished', () => {
    expect(validateInstanceForm({ ...valid, startFrom: 'rdb' }, xlarge)).toEqual({ rdbFile: 'Upload an RDB file (a dump.rdb made by Redis 7).' })
    const values = { ...valid, startFrom: 'rdb' as const, rdbImportId: 'u-1' }
    expect(validateInstanceForm(values, xlarge)).toEqual({})
    expect(toCreateRequest(values).restore_from).toEqual({ rdb_import_id: 'u-1' })
  })
})
