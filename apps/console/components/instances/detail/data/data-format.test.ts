import { describe, expect, it } from 'vitest'
import { editable, formatTtl, shownLabel } from './data-format'

describe('data browser wording', () => {
  it('says a TTL as a person reads it', () => {
    expect(formatTtl(null)).toBe('No expiry')
    expect(formatTtl(45_400)).toBe('45 s')
    expect(formatTtl(200_000)).toBe('3 min 20 s')
    expect(formatTtl(7_500_000)).toBe('2 h 5 min')
    expect(formatTtl(353_000_000)).toBe('4 d 2 h')
  })

  it('says where a value was cut, and edits only whole UTF-8 text', () => {
    const cut = { text: 'abc', length: 70_000, truncated: true, binary: false }
    expect(shownLabel(cut)).toBe('abc… (70000 bytes in all)')
    expect(editable(cut)).toBe(false)
    expect(editable({ text: '\\xff', length: 1, truncated: false, binary: true })).toBe(false)
    expect(editable({ text: 'ok', length: 2, truncated: false, binary: false })).toBe(true)
  })
})
