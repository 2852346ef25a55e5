import { render, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { CreatedInstancePanel } from './created-instance-panel'

const instance = {
  id: '3f0c6d7e-1111-4222-8333-944445555666',
  project_id: 'p1',
  engine_version: '1.0',
  health: null,
  health_reason: null,
  fault: null,
  connection_uri: null,
  nodes: [],
  tags: {},
  parameters: {},
  current_operation_id: null,
  updated_at: '2026-11-22T01:00:00Z',
  name: 'orders-cache',
  instance_type: 'kv.standard.small',
  region: 'local',
  disk_gib: 20,
  status: 'creating' as const,
  endpoints: [],
  tls_enabled: false,
  deletion_protection: false,
  data_browser_enabled: true,
  created_at: '2026-11-22T01:00:00Z',
  architecture: 'standalone' as const,
  replicas: 0,
  backup_window: '03:00-04:00',
  backup_retention_days: 7,
  restored_from: null,
}

describe('CreatedInstancePanel', () => {
  it('shows the generated password once with a warning and links to the instance', () => {
    render(<CreatedInstancePanel projectId="p1" result={{ instance, operation: null, default_user: { username: 'default', password: 's3cret-Generated-Pw' } }} />)
    const section = screen.getByRole('region', { name: 'Default user password' })
    expect(within(section).getByText('s3cret-Generated-Pw')).toBeInTheDocument()
    expect(within(section).getByRole('status')).toHaveTextContent(/shown only once/)
    expect(within(section).getByText('default')).toBeInTheDocument()
    expect(screen.getByText(/Status: Creating/)).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Go to instance' })).toHaveAttribute('href', `/projects/p1/instances/${instance.id}`)
  })
})
