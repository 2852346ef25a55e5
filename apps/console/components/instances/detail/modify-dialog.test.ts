import { describe, expect, it } from 'vitest'
import { resizeProblem } from './modify-dialog'

const xlarge = { id: 'kv.standard.xlarge', disk_gib_min: 40, disk_gib_max: 1000 }

describe('resizeProblem', () => {
  it('accepts a larger type with a disk in its range', () => {
    expect(resizeProblem({ disk_gib: 20 }, xlarge, '40')).toBeNull()
  })
  it('never shrinks a disk', () => {
    expect(resizeProblem({ disk_gib: 100 }, xlarge, '60')).toBe('Disks only grow: at least 100 GiB.')
  })
  it('keeps the disk in the type’s range and asks for whole GiB', () => {
    expect(resizeProblem({ disk_gib: 20 }, xlarge, '30')).toBe('kv.standard.xlarge takes 40–1000 GiB of disk.')
    expect(resizeProblem({ disk_gib: 20 }, xlarge, '2000')).toMatch(/40–1000/)
    expect(resizeProblem({ disk_gib: 20 }, xlarge, '45.5')).toMatch(/whole number/)
    expect(resizeProblem({ disk_gib: 20 }, undefined, '45')).toBe('Choose an instance type.')
  })
})
