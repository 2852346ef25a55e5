// The restore window's rule (issue 44): each timeline with a base covers a span; a failover
// leaves a gap between one timeline's end and the next one's first base, or none.
import { describe, expect, it } from 'vitest';
import { gapAt, gapRefusal, restoreWindowOf, windowCovers } from '../src/index.js';

const at = (iso: string) => new Date(iso);

describe('restore window by timeline', () => {
  it('one timeline: from its oldest base to where the archive caught up, no gap', () => {
    const window = restoreWindowOf(
      [{ timeline: 1, endTime: at('2026-01-01T10:00:00.400Z') }, { timeline: 1, endTime: at('2026-01-01T11:00:00Z') }],
      { timeline: 1, archivedTime: at('2026-01-01T11:30:00.900Z'), checkedAt: at('2026-01-01T11:30:01.200Z'), endedTimelines: [] },
      new Map(),
    );
    expect(window).toEqual({
      earliest: at('2026-01-01T10:00:01Z'),
      latest: at('2026-01-01T11:30:01Z'),
      timelines: [{ timeline: 1, earliest: at('2026-01-01T10:00:01Z'), latest: at('2026-01-01T11:30:01Z') }],
      gaps: [],
    });
  });

  it('a failover: the ended timeline stops at its last archived record, the gap runs to the next base', () => {
    const window = restoreWindowOf(
      [{ timeline: 1, endTime: at('2026-01-01T10:00:00Z') }, { timeline: 2, endTime: at('2026-01-01T10:05:07.300Z') }],
      { timeline: 2, archivedTime: at('2026-01-01T10:09:00Z'), checkedAt: at('2026-01-01T10:09:00.500Z'), endedTimelines: [] },
      new Map([[1, at('2026-01-01T10:05:02.800Z')], [2, at('2026-01-01T10:08:00Z')]]),
    );
    expect(window.timelines).toEqual([
      { timeline: 1, earliest: at('2026-01-01T10:00:00Z'), latest: at('2026-01-01T10:05:02Z') },
      { timeline: 2, earliest: at('2026-01-01T10:05:08Z'), latest: at('2026-01-01T10:09:00Z') },
    ]);
    expect(window.gaps).toEqual([{ from: at('2026-01-01T10:05:03Z'), to: at('2026-01-01T10:05:07Z'), endedTimeline: 1, nextTimeline: 2 }]);
    expect(windowCovers(window, at('2026-01-01T10:05:02Z'))).toBe(true);
    expect(windowCovers(window, at('2026-01-01T10:05:05Z'))).toBe(false);
    expect(gapAt(window, at('2026-01-01T10:05:05Z'))).toBe(window.gaps[0]);
    expect(gapRefusal(window.gaps[0]!, at('2026-01-01T10:05:05Z'))).toContain('choose a point up to 2026-01-01T10:05:02Z or from 2026-01-01T10:05:08Z');
    expect(gapAt(window, at('2026-01-01T10:05:08Z'))).toBeUndefined();
  });

  it('an ended timeline reaches where its archive had caught up when the failover moved it, beyond its stored segments', () => {
    const window = restoreWindowOf(
      [{ timeline: 1, endTime: at('2026-01-01T10:00:00.200Z') }, { timeline: 2, endTime: at('2026-01-01T10:05:09.100Z') }],
      { timeline: 2, archivedTime: null, checkedAt: at('2026-01-01T10:06:00Z'), endedTimelines: [{ timeline: 1, endedAt: '2026-01-01T10:05:04.600Z' }] },
      new Map([[1, at('2026-01-01T09:59:59Z')]]),
    );
    expect(window.timelines.map((span) => [span.timeline, span.earliest.toISOString(), span.latest.toISOString()])).toEqual([
      [1, '2026-01-01T10:00:01.000Z', '2026-01-01T10:05:04.000Z'],
      [2, '2026-01-01T10:05:10.000Z', '2026-01-01T10:06:00.000Z'],
    ]);
    expect(window.gaps).toEqual([{ from: at('2026-01-01T10:05:05Z'), to: at('2026-01-01T10:05:09Z'), endedTimeline: 1, nextTimeline: 2 }]);
  });

  it('a new timeline without a base yet: the window ends where the old one did', () => {
    const window = restoreWindowOf(
      [{ timeline: 1, endTime: at('2026-01-01T10:00:00Z') }],
      { timeline: 2, archivedTime: at('2026-01-01T10:09:00Z'), checkedAt: at('2026-01-01T10:09:00Z'), endedTimelines: [] },
      new Map([[1, at('2026-01-01T10:05:02Z')]]),
    );
    expect(window).toMatchObject({ earliest: at('2026-01-01T10:00:00Z'), latest: at('2026-01-01T10:05:02Z'), gaps: [] });
  });

  it('nothing before the first base; a base with no whole second after it yet restores from the backup only', () => {
    expect(restoreWindowOf([], undefined, new Map())).toEqual({ earliest: null, latest: null, timelines: [], gaps: [] });
    const single = restoreWindowOf([{ timeline: 1, endTime: at('2026-01-01T10:00:00.500Z') }], { timeline: 1, archivedTime: null, checkedAt: null, endedTimelines: [] }, new Map());
    expect(single).toEqual({ earliest: null, latest: null, timelines: [], gaps: [] });
  });
});
