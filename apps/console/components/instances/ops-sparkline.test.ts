import { describe, expect, it } from 'vitest'
import { sparklinePoints } from './ops-sparkline'

describe('sparklinePoints', () => {
  it('spans the box, highest value at the top, inset by half the stroke', () => {
    expect(sparklinePoints([0, 10, 5], 80, 24, 1)).toBe('1,23 40,1 79,12')
  })

  it('draws a flat series across the middle', () => {
    expect(sparklinePoints([7, 7], 80, 24, 0)).toBe('0,12 80,12')
  })

  it('draws nothing for fewer than two points', () => {
    expect(sparklinePoints([3])).toBe('')
    expect(sparklinePoints([])).toBe('')
  })
})
