import { describe, expect, it } from 'vitest'
import { safeNextPath } from './login-form'

describe('safeNextPath', () => {
  it('follows same-site paths only', () => {
    expect(safeNextPath('/projects/p1/instances')).toBe('/projects/p1/instances')
    expect(safeNextPath('/projects/p1/instances?tab=metrics#top')).toBe('/projects/p1/instances?tab=metrics#top')
    expect(safeNextPath('/projects/p1/instances?q=a%2Fb')).toBe('/projects/p1/instances?q=a%2Fb')
    expect(safeNextPath(null)).toBe('/')
    expect(safeNextPath('')).toBe('/')
    expect(safeNextPath('//evil.test/x')).toBe('/')
    expect(safeNextPath('https://evil.test')).toBe('/')
    expect(safeNextPath('/login?next=/x')).toBe('/')
  })

  it('sends every way off the site to the default page (issue 43)', () => {
    for (const next of [
      '/\\evil.example',
      '\\\\evil.example',
      '/\\/evil.example',
      '//evil',
      '///evil.example',
      'https://evil',
      'javascript:alert(1)',
      '/%5Cevil',
      '/%5cevil.example',
      '/%2F%2Fevil.example',
      '/\tevil.example',
      '/\n/evil.example',
      '/./login',
      '/projects/../login',
    ]) {
      expect(safeNextPath(next), JSON.stringify(next)).toBe('/')
    }
  })
})
