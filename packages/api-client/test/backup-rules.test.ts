import { describe, expect, it } from 'vitest';
import { inBackupWindow, isBackupRetentionDays, parseBackupWindow, parsePointInTime } from '../src/rules.js';

describe('backup rules', () => {
  it('parses windows of an hour or more, across midnight too', () => {
    expect(parseBackupWindow('03:00-04:00')).toEqual({ start: 180, end: 240 });
    expect(parseBackupWindow('23:30-00:30')).toEqual({ start: 1410, end: 1470 });
    expect(parseBackupWindow('03:00-03:59')).toEqual({ error: expect.stringMatching(/at least 60 minutes/) });
    for (const bad of ['3:00-4:00', '24:00-01:00', '03:00 04:00', '03:00-04:00; rm -rf /', '{{7*7}}', '']) {
      expect(parseBackupWindow(bad)).toHaveProperty('error');
    }
  });

  it('says whether a time falls in a window', () => {
    const late = parseBackupWindow('23:30-00:30') as { start: number; end: number };
    expect(inBackupWindow(late, new Date('2026-12-01T23:45:00Z'))).toBe(true);
    expect(inBackupWindow(late, new Date('2026-12-01T00:15:00Z'))).toBe(true);
    expect(inBackupWindow(late, new Date('2026-12-01T00:30:00Z'))).toBe(false);
    expect(inBackupWindow(late, new Date('2026-12-01T12:00:00Z'))).toBe(false);
  });

  it('bounds retention to 0-35 whole days', () => {
    expect([0, 1, 7, 35].every(isBackupRetentionDays)).toBe(true);
    expect([-1, 36, 1.5, '7', null].some(isBackupRetentionDays)).toBe(false);
  });

  it('takes points in time to the second, with a zone', () => {
    expect(parsePointInTime('2026-12-01T10:15:30Z')).toEqual(new Date('2026-12-01T10:15:30Z'));
    expect(parsePointInTime('2026-12-01T11:15:30+01:00')).toEqual(new Date('2026-12-01T10:15:30Z'));
    for (const bad of ['2026-12-01T10:15:30', '2026-12-01T10:15:30.5Z', '2026-02-30T10:00:00Z', 'yesterday', '2026-12-01']) {
      expect(parsePointInTime(bad)).toHaveProperty('error');
    }
  });
});
