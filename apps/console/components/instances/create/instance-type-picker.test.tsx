import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import type { InstanceType } from '@/data/catalog/instance-types-query'
import { InstanceTypePicker } from './instance-type-picker'

const types: InstanceType[] = [
  { id: 'kv.standard.small', size: 'small', reference_qps: null, vcpu: 1, memory_gib: 2, disk_gib_min: 10, disk_gib_max: 100, max_connections: 5000, bandwidth_mbps: 500, regions: ['local'] },
  { id: 'kv.standard.xlarge', size: 'xlarge', vcpu: 4, memory_gib: 16, disk_gib_min: 20, disk_gib_max: 500, max_connections: 20000, bandwidth_mbps: 2000, regions: ['local', 'aws-us-east-1'], reference_qps: { source: 'ESSD white paper', memory_larger_than_data: { load: 90000, uniform_read: 210000, zipfian_read: 250000, uniform_50_read_50_update: 120000 }, data_larger_than_memory: { load: 60000, uniform_read: 80000, zipfian_read: 150000, uniform_50_read_50_update: 50000 } } },
  { id: 'kv.standard.8xlarge', size: '8xlarge', reference_qps: null, vcpu: 32, memory_gib: 128, disk_gib_min: 100, disk_gib_max: 4000, max_connections: 100000, bandwidth_mbps: 16000, regions: ['aws-us-east-1'] },
]

describe('InstanceTypePicker', () => {
  it('lists each type with vCPU and memory, and reports the choice', async () => {
    const onChange = vi.fn()
    render(<InstanceTypePicker types={types} value="kv.standard.small" region="local" onChange={onChange} />)
    expect(screen.getByRole('group', { name: 'Instance type' })).toBeInTheDocument()
    expect(screen.getByRole('radio', { name: /kv\.standard\.small, 1 vCPU, 2 GiB memory/ })).toBeChecked()
    expect(screen.getByText('~210,000 reads/s published', { exact: false })).toBeInTheDocument()
    await userEvent.click(screen.getByRole('radio', { name: /kv\.standard\.xlarge, 4 vCPU, 16 GiB/ }))
    expect(onChange).toHaveBeenCalledWith('kv.standard.xlarge')
  })

  it('disables types not offered in the region', () => {
    render(<InstanceTypePicker types={types} value="" region="local" onChange={() => {}} />)
    expect(screen.getByRole('radio', { name: /kv\.standard\.8xlarge/ })).toBeDisabled()
    expect(screen.getByRole('radio', { name: /kv\.standard\.xlarge/ })).toBeEnabled()
  })
})
