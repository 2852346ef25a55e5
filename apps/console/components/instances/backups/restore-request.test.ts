import { describe, expect, it } from 'vitest'
import type { InstanceType } from '@/data/catalog/instance-types-query'
import { restoredDiskGib, restoreRequest } from './restore-request'

const small: InstanceType = { id: 'kv.standard.small', size: 'small', vcpu: 1, memory_gib: 2, disk_gib_min: 10, disk_gib_max: 100, max_connections: 5000, regions: ['local'], reference: null }
const large: InstanceType = { ...small, id: 'kv.standard.large', disk_gib_min: 20, disk_gib_max: 200, max_connections: 20000 }

const source = {
  region: 'local',
  disk_gib: 15,
  tls_enabled: true,
  architecture: 'standard' as const,
  replicas: 2,
  parameters: { fsync: 'always' as const, maxclients: 10000, replication_mode: 'async' as const },
  backup_window: '22:00-23:30',
  backup_retention_days: 14,
}

describe('the create request of a restore', () => {
  it('keeps the source disk where the type takes it, else the nearest the type allows', () => {
    expect(restoredDiskGib(15, small)).toBe(15)
    expect(restoredDiskGib(15, large)).toBe(20)
    expect(restoredDiskGib(500, large)).toBe(200)
    expect(restoredDiskGib(15, undefined)).toBeUndefined()
  })

  it('is shaped like the source, under the new name and type, with what it restores', () => {
    const body = restoreRequest(source, { name: ' orders-restored ', type: large, instanceType: large.id }, { backup_id: 'b-1' }, [
      { cidr: '10.0.0.0/8', description: 'office', created_at: '2026-12-01T10:00:00Z' } as never,
    ])
    expect(body).toEqual({
      name: 'orders-restored',
      engine_version: '1.0',
      instance_type: 'kv.standard.large',
      region: 'local',
      disk_gib: 20,
      architecture: 'standard',
      replicas: 2,
      tls_enabled: true,
      allowlist: [{ cidr: '10.0.0.0/8', description: 'office' }],
      parameters: { fsync: 'always', maxclients: 10000, replication_mode: 'async' },
      backup_window: '22:00-23:30',
      backup_retention_days: 14,
      restore_from: { backup_id: 'b-1' },
    })
  })

  it('leaves out a connection limit the new type does not allow, and a standalone source stays standalone', () => {
    const body = restoreRequest({ ...source, architecture: 'standalone', replicas: 0 }, { name: 'x', type: small, instanceType: small.id }, { source_instance_id: 's', point_in_time: '2026-12-01T10:15:30Z' }, [])
    expect(body.parameters).toEqual({ fsync: 'always', replication_mode: 'async' })
    expect(body).not.toHaveProperty('architecture')
    expect(body.restore_from).toEqual({ source_instance_id: 's', point_in_time: '2026-12-01T10:15:30Z' })
  })
})
