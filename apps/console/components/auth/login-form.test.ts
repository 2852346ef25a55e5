import { describe, expect, it } from 'vitest'
import { safeNextPath } from './login-form'

describe('safeNextPath', () => {
  it('follows same-site paths only', () => {
    expect(safeNextPath('/projects/p1/instances')).toBe('/projects/p1/instances')
    expect(safeNextPath(null)).toBe('/')
    expect(safeNextPath('//evil.test/x')).toBe('/')
    expect(safeNextPath('https://evil.test')).toBe('/')
    expect(safeNextPath('/login?next=/x')).toBe('/')
  })
})
