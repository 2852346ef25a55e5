// Backups (issue 44): the daily window, the retention and a restore's point in time, one rule
// for the API (400), the console (before a round trip), the provider's docs and the worker's
// scheduler. As MemoryDB and ElastiCache: a window of at least an hour, UTC, `HH:MM-HH:MM`
// (it may cross midnight), and 1-35 days of retention, 0 to turn automatic backups off.

export const BACKUP_RETENTION_DAYS_MIN = 0;
export const BACKUP_RETENTION_DAYS_MAX = 35;
export const BACKUP_RETENTION_DAYS_DEFAULT = 7;
export const BACKUP_WINDOW_DEFAULT = '03:00-04:00';
export const BACKUP_WINDOW_MIN_MINUTES = 60;

const WINDOW = /^([01]\d|2[0-3]):([0-5]\d)-([01]\d|2[0-3]):([0-5]\d)$/;
const DAY_MINUTES = 24 * 60;

/** A window as minutes after midnight UTC; `end` is past `start` (a window over midnight ends after 1440). */
export interface BackupWindow {
  start: number;
  end: number;
}

/** The window `HH:MM-HH:MM` names, or why it is refused. */
export function parseBackupWindow(input: string): BackupWindow | { error: string } {
  const match = WINDOW.exec(input);
  if (!match) return { error: 'must be HH:MM-HH:MM (24-hour, UTC), e.g. 03:00-04:00' };
  const [h1, m1, h2, m2] = match.slice(1).map(Number) as [number, number, number, number];
  const start = h1 * 60 + m1;
  let end = h2 * 60 + m2;
  if (end <= start) end += DAY_MINUTES;
  if (end - start < BACKUP_WINDOW_MIN_MINUTES) return { error: `must be at least ${BACKUP_WINDOW_MIN_MINUTES} minutes long` };
  return { start, end };
}

/** Whether `at` falls in the window (its UTC time of day). */
export function inBackupWindow(window: BackupWindow, at: Date): boolean {
  const minute = at.getUTCHours() * 60 + at.getUTCMinutes();
  return (minute >= window.start && minute < window.end) || (minute + DAY_MINUTES >= window.start && minute + DAY_MINUTES < window.end);
}

export function isBackupRetentionDays(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= BACKUP_RETENTION_DAYS_MIN && (value as number) <= BACKUP_RETENTION_DAYS_MAX;
}

/**
 * A restore's point in time: RFC 3339 with a time zone, to the second (a fraction is refused
 * rather than silently cut: the log's times are milliseconds, a restore stops at a second).
 */
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(Z|[+-]\d{2}:\d{2})$/;

export function parsePointInTime(input: string): Date | { error: string } {
  if (!RFC3339.test(input)) return { error: 'must be RFC 3339 to the second with a time zone, e.g. 2026-12-01T10:15:30Z' };
  const at = new Date(input);
  // Date rolls 2026-02-30 over into March: the day must exist in its month.
  const [year, month, day] = input.slice(0, 10).split('-').map(Number) as [number, number, number];
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return Number.isNaN(at.getTime()) || month < 1 || month > 12 || day < 1 || day > days ? { error: 'is not a real date and time' } : at;
}
