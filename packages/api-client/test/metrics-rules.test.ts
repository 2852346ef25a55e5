import { describe, expect, it } from 'vitest';
import { METRIC_SERIES_KEYS, parseMetricSeries } from '../src/rules.js';

describe('parseMetricSeries', () => {
  it('answers every series by default and each named one once, in the order first named (issue 43)', () => {
    expect(parseMetricSeries(undefined)).toEqual({ ok: true, keys: METRIC_SERIES_KEYS });
    expect(parseMetricSeries('ops_write, ops_read,ops_write')).toEqual({ ok: true, keys: ['ops_write', 'ops_read'] });
  });

  it('refuses unknown keys, an empty list and more names than there are series', () => {
    expect(parseMetricSeries('ops_read,up')).toMatchObject({ ok: false, error: expect.stringContaining('keys of') });
    expect(parseMetricSeries('')).toMatchObject({ ok: false });
    expect(parseMetricSeries(Array(METRIC_SERIES_KEYS.length).fill('ops_read').join(','))).toEqual({ ok: true, keys: ['ops_read'] });
    expect(parseMetricSeries(Array(44).fill('ops_read').join(','))).toMatchObject({ ok: false, error: `series names at most ${METRIC_SERIES_KEYS.length} keys; 44 given` });
  });
});
