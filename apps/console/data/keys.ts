// Every TanStack Query key the console uses, in one place, so invalidation after a mutation
// names exactly what it refreshes.

export const queryKeys = {
  session: () => ['session'] as const,
  projects: () => ['projects'] as const,
  regions: () => ['catalog', 'regions'] as const,
  instanceTypes: () => ['catalog', 'instance-types'] as const,
  /** Under instanceTypes(): refreshing the catalog (its reference figures) refreshes the reports too. */
  typeReports: {
    all: (type: string) => ['catalog', 'instance-types', type, 'reports'] as const,
    list: (type: string) => ['catalog', 'instance-types', type, 'reports', 'list'] as const,
    latest: (type: string) => ['catalog', 'instance-types', type, 'reports', 'latest'] as const,
    document: (type: string, report: string) => ['catalog', 'instance-types', type, 'reports', report, 'document'] as const,
  },
  apiKeys: () => ['api-keys'] as const,
  operation: (id: string) => ['operations', id] as const,
  auditLog: (project: string) => ['projects', project, 'audit-log'] as const,
  members: (project: string) => ['projects', project, 'members'] as const,
  rdbExport: (project: string, id: string) => ['projects', project, 'exports', id] as const,
  rdbImportLimits: (project: string) => ['projects', project, 'rdb-imports', 'limits'] as const,
  instances: {
    all: (project: string) => ['projects', project, 'instances'] as const,
    list: (project: string) => ['projects', project, 'instances', 'list'] as const,
    detail: (project: string, id: string) => ['projects', project, 'instances', id] as const,
    users: (project: string, id: string) => ['projects', project, 'instances', id, 'users'] as const,
    allowlist: (project: string, id: string) => ['projects', project, 'instances', id, 'allowlist'] as const,
    operations: (project: string, id: string) => ['projects', project, 'instances', id, 'operations'] as const,
    benchmarks: (project: string, id: string) => ['projects', project, 'instances', id, 'benchmarks'] as const,
    metrics: (project: string, id: string, range: string, series: string) => ['projects', project, 'instances', id, 'metrics', range, series] as const,
    slowlog: (project: string, id: string) => ['projects', project, 'instances', id, 'slowlog'] as const,
    backups: (project: string, id: string) => ['projects', project, 'instances', id, 'backups'] as const,
    /** The data browser's keys and values (never its password): a change refreshes them all. */
    data: (project: string, id: string) => ['projects', project, 'instances', id, 'data'] as const,
    dataKeys: (project: string, id: string, username: string, match: string, type: string) =>
      ['projects', project, 'instances', id, 'data', username, 'keys', match, type] as const,
    dataValue: (project: string, id: string, username: string, key: string) => ['projects', project, 'instances', id, 'data', username, 'value', key] as const,
    /** Under backups(): a backup's end refreshes the window it opens. */
    restoreWindow: (project: string, id: string) => ['projects', project, 'instances', id, 'backups', 'restore-window'] as const,
  },
}
