// The control plane's backup metrics (issue 44), per instance that keeps backups: the age of
// its newest succeeded backup and how far its log archive lags behind its node, read from
// PostgreSQL at each scrape with the same rules the API shows (archiveLagSeconds) and the
// health monitor judges by (ARCHIVE_LAG_DEGRADED_S, exported beside them for alert rules).
import { archiveLagSeconds } from '@basalt/db';
import type { JobContext } from '../context.js';
import { gauge, type Gauge } from '../monitoring/exposition.js';
import { ARCHIVE_LAG_DEGRADED_S } from './archive-health.js';
import { ARCHIVED_STATUSES } from './archiver.js';

export async function backupMetrics(ctx: JobContext, now = new Date()): Promise<Gauge[]> {
  const rows = await ctx.repo.backups().freshnessOf([...ARCHIVED_STATUSES]);
  const labels = (row: (typeof rows)[number]) => ({ basalt_instance: row.instanceId, basalt_project: row.projectId });
  return [
    gauge(
      'basalt_backup_last_success_age_seconds',
      "Seconds since the instance's newest succeeded backup finished (absent before its first)",
      rows.filter((row) => row.lastBackupAt).map((row) => ({ labels: labels(row), value: Math.max(0, Math.round((now.getTime() - row.lastBackupAt!.getTime()) / 1000)) })),
    ),
    gauge(
      'basalt_archive_lag_seconds',
      "Seconds since the log archive last caught up with the instance's primary (absent before its first pass)",
      rows.flatMap((row) => {
        const lag = archiveLagSeconds({ checkedAt: row.checkedAt }, now);
        return lag === null ? [] : [{ labels: labels(row), value: lag }];
      }),
    ),
    gauge('basalt_archive_lag_degraded_threshold_seconds', 'Archive lag past which an instance is degraded', [{ labels: {}, value: ARCHIVE_LAG_DEGRADED_S }]),
  ];
}
