import { describe, expect, it } from 'vitest'
import { inputToPoint, pointProblem, pointToInput, restorableRange } from './restore-point'

const window = {
  earliest: '2026-12-01T10:00:00Z',
  latest: '2026-12-01T11:30:15Z',
  timelines: [{ timeline: 1, earliest: '2026-12-01T10:00:00Z', latest: '2026-12-01T11:30:15Z' }],
  gaps: [],
  archive_lag_seconds: 3,
  last_backup_at: '2026-12-01T10:00:04Z',
}

describe('a restore point from a datetime-local input', () => {
  it('reads the input as UTC to the second, the seconds an input drops included', () => {
    expect(inputToPoint('2026-12-01T10:15:30')).toBe('2026-12-01T10:15:30Z')
    expect(inputToPoint('2026-12-01T10:15')).toBe('2026-12-01T10:15:00Z')
    expect(inputToPoint('2026-12-01T10:15:30.250')).toBeNull()
    expect(inputToPoint('2026-02-30T10:15:30')).toBeNull() // the shared rule: a day its month has
    expect(inputToPoint('yesterday')).toBeNull()
  })

  it('shows an API time in the input, to the second', () => {
    expect(pointToInput('2026-12-01T11:30:15Z')).toBe('2026-12-01T11:30:15')
    expect(pointToInput('2026-12-01T12:30:15+01:00')).toBe('2026-12-01T11:30:15')
  })

  it('takes only points inside the window, its ends included', () => {
    expect(pointProblem('2026-12-01T10:00:00', window)).toBeNull()
    expect(pointProblem('2026-12-01T11:30:15', window)).toBeNull()
    expect(pointProblem('2026-12-01T09:59:59', window)).toBe('Choose a point from 2026-12-01 10:00:00 to 2026-12-01 11:30:15 UTC.')
    expect(pointProblem('2026-12-01T11:30:16', window)).toMatch(/^Choose a point from/)
    expect(pointProblem('', window)).toBe('Choose a point in time.')
    expect(pointProblem('2026-12-01', window)).toBe('Enter a date and a time to the second, in UTC.')
  })

  it('has nothing to offer before the first backup has succeeded', () => {
    const empty = { earliest: null, latest: null, timelines: [], gaps: [], archive_lag_seconds: null, last_backup_at: null }
    expect(restorableRange(empty)).toBeNull()
    expect(restorableRange(undefined)).toBeNull()
    expect(pointProblem('2026-12-01T10:00:00', empty)).toMatch(/nothing to restore yet/)
    expect(restorableRange(window)).toEqual({ earliest: window.earliest, latest: window.latest })
  })

  it('refuses a point in the gap a failover left, and says so', () => {
    const failedOver = {
      ...window,
      timelines: [
        { timeline: 1, earliest: '2026-12-01T10:00:00Z', latest: '2026-12-01T10:40:02Z' },
        { timeline: 2, earliest: '2026-12-01T10:40:08Z', latest: '2026-12-01T11:30:15Z' },
      ],
      gaps: [{ from: '2026-12-01T10:40:03Z', to: '2026-12-01T10:40:07Z', ended_timeline: 1, next_timeline: 2 }],
    }
    expect(pointProblem('2026-12-01T10:40:02', failedOver)).toBeNull()
    expect(pointProblem('2026-12-01T10:40:05', failedOver)).toBe(
      'No restore reaches 2026-12-01 10:40:03 to 2026-12-01 10:40:07 UTC exactly (a failover ended timeline 1); choose a point before or after it.',
    )
    expect(pointProblem('2026-12-01T10:40:08', failedOver)).toBeNull()
  })
})
