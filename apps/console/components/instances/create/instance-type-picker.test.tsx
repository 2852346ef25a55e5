import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import type { InstanceType } from '@/data/catalog/instance-types-query'
import { InstanceTypePicker } from './instance-type-picker'

const types: InstanceType[] = [
  { id: 'kv.standard.small', size: 'small', vcpu: 1, memory_gib: 2, disk_gib_min: 10, disk_gib_max: 100, max_connections: 5000, regions: ['local'], reference: null },
  { id: 'kv.standard.xlarge', size: 'xlarge', vcpu: 4, memory_gib: 16, disk_gib_min: 20, disk_gib_max: 500, max_connections: 20000, regions: ['local', 'aws-us-east-1'], reference: null },
  { id: 'kv.standard.8xlarge', size: '8xlarge', vcpu: 32, memory_gib: 128, disk_gib_min: 100, disk_gib_max: 4000, max_connections: 100000, regions: ['aws-us-east-1'], reference: null },
]

describe('InstanceTypePicker', () => {
  it('lists each type with vCPU and memory, and reports the choice', async () => {
    const onChange = vi.fn()
    render(<InstanceTypePicker types={types} value="kv.standard.small" region="local" onChange={onChange} />)
    expect(screen.getByRole('group', { name: 'Instance type' })).toBeInTheDocument()
    expect(screen.getByRole('radio', { name: /kv\.standard\.small, 1 vCPU, 2 GiB memory/ })).toBeChecked()
    // No throughput figure: a Basalt type shows only what Basalt measured, and none has a report yet.
    expect(screen.queryByText(/reads\/s|published/)).toBeNull()
    await userEvent.click(screen.getByRole('radio', { name: /kv\.standard\.xlarge, 4 vCPU, 16 GiB/ }))
    expect(onChange).toHaveBeenCalledWith('kv.standard.xlarge')
  })

  it('disables types not offered in the region', () => {
    render(<InstanceTypePicker types={types} value="" region="local" onChange={() => {}} />)
    expect(screen.getByRole('radio', { name: /kv\.standard\.8xlarge/ })).toBeDisabled()
    expect(screen.getByRole('radio', { name: /kv\.standard\.xlarge/ })).toBeEnabled()
  })
})
