import { describe, expect, it } from 'vitest'
import { formatBytes, formatInstant } from './format'

describe('instance formatters', () => {
  it('gives sizes in binary units', () => {
    expect(formatBytes(69)).toBe('69 B')
    expect(formatBytes(1536)).toBe('1.5 KiB')
    expect(formatBytes(250 * 1024 ** 2)).toBe('250 MiB')
    expect(formatBytes(3 * 1024 ** 3)).toBe('3.0 GiB')
  })

  it('gives a restore point to the second, in UTC', () => {
    expect(formatInstant('2026-12-01T10:15:30Z')).toBe('1 Dec 2026, 10:15:30 UTC')
    expect(formatInstant(null)).toBe('—')
  })
})
