// The control plane's PostgreSQL schema. One file so drizzle-kit reads it without a module resolver.
// Described table by table in services/api/README.md; change it, then `npm run generate -w @basalt/db`.
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import type { InstanceEndpoint, InstanceNode } from './instance-topology.js';
import type { ReportHeadline, ReportPeer, TypeReportDocument } from './type-report.js';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

export const projectRole = pgEnum('project_role', ['owner', 'member', 'viewer']);
export const instanceStatus = pgEnum('instance_status', [
  'creating',
  'running',
  'modifying',
  'restarting',
  'deleting',
  'deleted',
  'create_failed',
  'error',
]);
/** Values of ARCHITECTURES and ADDRESS_KINDS (instance-topology.ts checks they match). */
export const instanceArchitecture = pgEnum('instance_architecture', ['standalone', 'standard']);
export const addressKind = pgEnum('address_kind', ['node', 'primary_endpoint', 'readonly_endpoint']);
export const instanceHealth = pgEnum('instance_health', ['healthy', 'degraded', 'unavailable']);
export const userPermission = pgEnum('user_permission', ['read_only', 'read_write', 'admin']);
export const operationType = pgEnum('operation_type', [
  'create',
  'modify',
  'restart',
  'delete',
  'apply_users',
  'apply_allowlist',
  'benchmark',
  'failover',
  'benchmark_report',
  'backup',
  'rdb_export',
]);
export const operationStatus = pgEnum('operation_status', ['pending', 'running', 'succeeded', 'failed']);
/** A report made on this install (local) or loaded from a committed report (published, docs/benchmarks). */
export const reportOrigin = pgEnum('report_origin', ['local', 'published']);
/** Who made a backup: a person (kept until deleted), the daily schedule, or the instance's delete. */
export const backupKind = pgEnum('backup_kind', ['manual', 'automatic', 'final']);
/** `deleting`: asked to go; the worker's backup pass removes its objects, then the row. */
export const backupStatus = pgEnum('backup_status', ['pending', 'running', 'succeeded', 'failed', 'deleting']);
export const benchmarkStatus = pgEnum('benchmark_status', ['pending', 'running', 'succeeded', 'failed', 'cancelled']);

/**
 * What a restored instance was made from, as the API shows it (InstanceDto.restored_from): a
 * backup, or a source instance at a point in time (RFC 3339, to the second). The create's job
 * carries the same source as jobs.ts RestoreSource.
 */
export type RestoredFrom = { backup_id: string } | { source_instance_id: string; point_in_time: string } | { rdb_import_id: string };

export const users = pgTable('users', {
  id: uuid('id').primaryKey().defaultRandom(),
  email: text('email').notNull().unique(),
  name: text('name').notNull().default(''),
  passwordHash: text('password_hash').notNull(),
  isAdmin: boolean('is_admin').notNull().default(false),
  createdAt: createdAt(),
});

/** The user a row belongs to, gone with them. */
const ownedByUser = () =>
  uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' });

export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: ownedByUser(),
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: ownedByUser(),
    name: text('name').notNull(),
    prefix: text('prefix').notNull(),
    keyHash: text('key_hash').notNull().unique(),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    /** The key that created this one (null when made from a session): revoking it revokes this. */
    parentId: uuid('parent_id').references((): AnyPgColumn => apiKeys.id, { onDelete: 'cascade' }),
  },
  (t) => [index('api_keys_user_idx').on(t.userId), index('api_keys_parent_idx').on(t.parentId)],
);

/**
 * The live server-sent event streams of each user, across every API process: a row per open
 * stream, its lease renewed while the stream lives and deleted when it ends; a process that
 * dies leaves rows that stop counting once their lease runs out.
 */
export const eventStreams = pgTable(
  'event_streams',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: ownedByUser(),
    createdAt: createdAt(),
    leaseUntil: timestamp('lease_until', { withTimezone: true }).notNull(),
  },
  (t) => [index('event_streams_user_idx').on(t.userId)],
);

export const projects = pgTable('projects', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
  createdAt: createdAt(),
});

export const projectMembers = pgTable(
  'project_members',
  {
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    userId: ownedByUser(),
    role: projectRole('role').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.userId] }), index('project_members_user_idx').on(t.userId)],
);

export const regions = pgTable('regions', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  target: text('target').notNull(),
  addressPool: text('address_pool').notNull(),
  // Written by the workers at their start (host-network.ts): false, with the reason, while they
  // cannot serve the region (no bridge); the API refuses new instances there.
  available: boolean('available').notNull().default(true),
  unavailableReason: text('unavailable_reason'),
  // The architectures its workers can place (a worker on process VMs gives each node no VM of
  // its own, so no standard instance), written with `available`; the API refuses the others.
  architectures: text('architectures').array().notNull().default(sql`'{standalone,standard}'::text[]`),
  createdAt: createdAt(),
});

export const instanceTypes = pgTable('instance_types', {
  id: text('id').primaryKey(),
  size: text('size').notNull(),
  vcpu: integer('vcpu').notNull(),
  memoryGib: real('memory_gib').notNull(),
  diskGibMin: integer('disk_gib_min').notNull(),
  diskGibMax: integer('disk_gib_max').notNull(),
  maxConnections: integer('max_connections').notNull(),
  regions: text('regions').array().notNull(),
  sortOrder: integer('sort_order').notNull(),
});

export const instances = pgTable(
  'instances',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    instanceType: text('instance_type')
      .notNull()
      .references(() => instanceTypes.id),
    region: text('region')
      .notNull()
      .references(() => regions.id),
    engineVersion: text('engine_version').notNull(),
    diskGib: integer('disk_gib').notNull(),
    status: instanceStatus('status').notNull().default('creating'),
    health: instanceHealth('health'),
    /** Why `health` is not `healthy` (the health monitor's finding); null when healthy. */
    healthReason: text('health_reason'),
    fault: jsonb('fault'),
    endpoints: jsonb('endpoints').$type<InstanceEndpoint[]>().notNull().default(sql`'[]'::jsonb`),
    nodes: jsonb('nodes').$type<InstanceNode[]>().notNull().default(sql`'[]'::jsonb`),
    architecture: instanceArchitecture('architecture').notNull().default('standalone'),
    /** Replicas beside the primary: 0 for `standalone`, 1..5 for `standard`. */
    replicas: integer('replicas').notNull().default(0),
    tlsEnabled: boolean('tls_enabled').notNull().default(false),
    deletionProtection: boolean('deletion_protection').notNull().default(false),
    /** The console's data browser (services/api/src/data-browser): off, its routes answer 409. */
    dataBrowserEnabled: boolean('data_browser_enabled').notNull().default(true),
    tags: jsonb('tags').notNull().default(sql`'{}'::jsonb`),
    parameters: jsonb('parameters').notNull().default(sql`'{}'::jsonb`),
    currentOperationId: uuid('current_operation_id'),
    /** The daily automatic backup's window, UTC, `HH:MM-HH:MM` (backup-window.ts). */
    backupWindow: text('backup_window').notNull().default('03:00-04:00'),
    /** Days automatic and final backups are kept (1-35); 0: no automatic backups, no archive. */
    backupRetentionDays: integer('backup_retention_days').notNull().default(7),
    /** What the instance's data was restored from when it was made; null: it started empty. */
    restoredFrom: jsonb('restored_from').$type<RestoredFrom>(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('instances_project_name_live_uq')
      .on(t.projectId, t.name)
      .where(sql`${t.status} <> 'deleted'`),
    index('instances_project_created_idx').on(t.projectId, t.createdAt, t.id),
    index('instances_project_name_idx').on(t.projectId, t.name, t.id),
  ],
);

/**
 * The addresses of a region's pool that instances hold (IPAM): one row per node VM and per
 * floating endpoint address. An address is free again once its row is gone or its instance
 * is `deleted`.
 */
export const addressAllocations = pgTable(
  'address_allocations',
  {
    region: text('region')
      .notNull()
      .references(() => regions.id),
    address: text('address').notNull(),
    instanceId: uuid('instance_id')
      .notNull()
      .references(() => instances.id, { onDelete: 'cascade' }),
    /** The node's name (`node`), or the endpoint's role. */
    name: text('name').notNull(),
    kind: addressKind('kind').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.region, t.address] }), uniqueIndex('address_allocations_instance_name_uq').on(t.instanceId, t.name)],
);

export const instanceUsers = pgTable(
  'instance_users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    instanceId: uuid('instance_id')
      .notNull()
      .references(() => instances.id, { onDelete: 'cascade' }),
    username: text('username').notNull(),
    permission: userPermission('permission').notNull(),
    passwordEncrypted: text('password_encrypted').notNull(),
    oldPasswordEncrypted: text('old_password_encrypted'),
    oldPasswordExpiresAt: timestamp('old_password_expires_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('instance_users_instance_username_uq').on(t.instanceId, t.username)],
);

export const allowlistEntries = pgTable(
  'allowlist_entries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    instanceId: uuid('instance_id')
      .notNull()
      .references(() => instances.id, { onDelete: 'cascade' }),
    cidr: text('cidr').notNull(),
    description: text('description').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('allowlist_instance_cidr_uq').on(t.instanceId, t.cidr)],
);

/**
 * The control plane's own engine user of an instance (health checks, live changes): never a
 * customer's. Its password is generated, sealed with the master key, and rotated by deploys
 * (services/worker/src/engine-deploy.ts says which): `next` is the one being introduced, promoted
 * to `password` once the deploy succeeded, so the engine always knows one of the two the worker
 * tries.
 */
export const instanceControlCredentials = pgTable('instance_control_credentials', {
  instanceId: uuid('instance_id')
    .primaryKey()
    .references(() => instances.id, { onDelete: 'cascade' }),
  passwordEncrypted: text('password_encrypted').notNull(),
  nextPasswordEncrypted: text('next_password_encrypted'),
  /**
   * The password a replica of a `standard` instance logs in to its primary with (user
   * basalt:replication), sealed; made by the worker on the first deploy, never rotated with
   * the control password (a replica's link would drop).
   */
  replicationPasswordEncrypted: text('replication_password_encrypted'),
  /**
   * The CA of a `standard` TLS instance (issue 15): its certificate (public) and its key,
   * sealed. Made by the worker on the first deploy; every node's certificate is signed by it,
   * so replicas and clients check whichever node serves them with one CA certificate.
   */
  tlsCaCertificate: text('tls_ca_certificate'),
  tlsCaKeyEncrypted: text('tls_ca_key_encrypted'),
  updatedAt: updatedAt(),
});

/**
 * An instance's log archive in the object store: its data key (AES-256-GCM, sealed by the master
 * key), the timeline its archive is on (a failover starts the next), and how far it has come.
 * Kept after the instance is deleted, while backups of it are.
 */
export const instanceArchives = pgTable('instance_archives', {
  instanceId: uuid('instance_id')
    .primaryKey()
    .references(() => instances.id, { onDelete: 'cascade' }),
  projectId: uuid('project_id')
    .notNull()
    .references(() => projects.id, { onDelete: 'cascade' }),
  dataKeyEncrypted: text('data_key_encrypted').notNull(),
  timeline: integer('timeline').notNull().default(1),
  /** The node whose log the timeline archives (a failover moves the archive to the new primary). */
  sourceNode: text('source_node'),
  /** The newest record archived: its time and LSN (the latest restorable point). */
  archivedTime: timestamp('archived_time', { withTimezone: true }),
  archivedLsn: bigint('archived_lsn', { mode: 'number' }),
  /** When the archiver last brought the archive up to the node's sealed log. */
  checkedAt: timestamp('checked_at', { withTimezone: true }),
  /** Why the archive is not keeping up (the archiver's last error); null when it is. */
  lastError: text('last_error'),
  /**
   * Timelines a failover ended, each with how far its archive had caught up when the archive
   * moved to the next primary: the latest point a restore on it reaches.
   */
  endedTimelines: jsonb('ended_timelines').$type<{ timeline: number; endedAt: string }[]>().notNull().default(sql`'[]'::jsonb`),
  updatedAt: updatedAt(),
});

/** One sealed log segment in the object store: the unit of both bases and the archive. */
export const archivedSegments = pgTable(
  'archived_segments',
  {
    instanceId: uuid('instance_id')
      .notNull()
      .references(() => instances.id, { onDelete: 'cascade' }),
    timeline: integer('timeline').notNull(),
    segment: bigint('segment', { mode: 'number' }).notNull(),
    objectKey: text('object_key').notNull(),
    /** Bytes stored (sealed) and the SHA-256 of them, checked on every read. */
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    sha256: text('sha256').notNull(),
    firstLsn: bigint('first_lsn', { mode: 'number' }).notNull(),
    lastLsn: bigint('last_lsn', { mode: 'number' }).notNull(),
    firstTime: timestamp('first_time', { withTimezone: true }),
    lastTime: timestamp('last_time', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.instanceId, t.timeline, t.segment] })],
);

/**
 * A base backup: the live segments of an instance's log at one sealed point (its manifest lists
 * them), restorable to that point and, with the archive after it, to any later second.
 */
export const backups = pgTable(
  'backups',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    instanceId: uuid('instance_id')
      .notNull()
      .references(() => instances.id, { onDelete: 'cascade' }),
    kind: backupKind('kind').notNull(),
    status: backupStatus('status').notNull().default('pending'),
    operationId: uuid('operation_id'),
    timeline: integer('timeline'),
    /** The point the base is consistent at: the earliest it restores to. */
    endLsn: bigint('end_lsn', { mode: 'number' }),
    endTime: timestamp('end_time', { withTimezone: true }),
    segments: integer('segments').notNull().default(0),
    /** The segments the base's manifest names (retention keeps them while the base is kept). */
    segmentIds: jsonb('segment_ids').$type<number[]>().notNull().default(sql`'[]'::jsonb`),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull().default(0),
    /** Bytes this base uploaded itself (the rest the archive or an earlier base had stored). */
    uploadedBytes: bigint('uploaded_bytes', { mode: 'number' }).notNull().default(0),
    manifestKey: text('manifest_key'),
    /** Null: kept until deleted (a manual backup). */
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    error: jsonb('error'),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [index('backups_instance_idx').on(t.instanceId, t.createdAt)],
);

/** An RDB export of a backup (issue 44): pending, then `succeeded` with its object, or `failed`. */
export const rdbExportStatus = pgEnum('rdb_export_status', ['pending', 'running', 'succeeded', 'failed']);

/**
 * An RDB file made from a backup, stored sealed with the instance's data key under the
 * instance's prefix, downloadable until it expires; the scheduler then removes object and row.
 */
export const rdbExports = pgTable(
  'rdb_exports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    instanceId: uuid('instance_id')
      .notNull()
      .references(() => instances.id, { onDelete: 'cascade' }),
    /** No foreign key: the export outlives a backup removed by retention meanwhile. */
    backupId: uuid('backup_id').notNull(),
    status: rdbExportStatus('status').notNull().default('pending'),
    operationId: uuid('operation_id'),
    objectKey: text('object_key'),
    /** Bytes of the plain RDB. */
    sizeBytes: bigint('size_bytes', { mode: 'number' }),
    error: jsonb('error'),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('rdb_exports_expires_idx').on(t.expiresAt)],
);

/**
 * An RDB file a person uploaded to create an instance from (issue 44), stored sealed with a
 * key of its own (sealed by the master key) under the project's imports prefix until it expires.
 */
export const rdbImports = pgTable(
  'rdb_imports',
  {
    id: uuid('id').primaryKey(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    objectKey: text('object_key').notNull(),
    /** The import's own AES-256 key, base64, sealed by the master key. */
    dataKeyEncrypted: text('data_key_encrypted').notNull(),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    /** SHA-256 (hex) of the plain file, as uploaded. */
    sha256: text('sha256').notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('rdb_imports_expires_idx').on(t.expiresAt)],
);

export const operations = pgTable(
  'operations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    instanceId: uuid('instance_id').references(() => instances.id, { onDelete: 'cascade' }),
    type: operationType('type').notNull(),
    status: operationStatus('status').notNull().default('pending'),
    progress: integer('progress').notNull().default(0),
    steps: jsonb('steps').notNull().default(sql`'[]'::jsonb`),
    error: jsonb('error'),
    params: jsonb('params').notNull().default(sql`'{}'::jsonb`),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    updatedAt: updatedAt(),
  },
  (t) => [index('operations_instance_idx').on(t.instanceId, t.createdAt)],
);

export const operationEvents = pgTable(
  'operation_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    operationId: uuid('operation_id')
      .notNull()
      .references(() => operations.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    step: text('step'),
    message: text('message').notNull().default(''),
    data: jsonb('data'),
    createdAt: createdAt(),
  },
  (t) => [index('operation_events_operation_idx').on(t.operationId, t.id)],
);

export const benchmarks = pgTable(
  'benchmarks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    projectId: uuid('project_id').references(() => projects.id, { onDelete: 'cascade' }),
    instanceId: uuid('instance_id').references(() => instances.id, { onDelete: 'cascade' }),
    instanceType: text('instance_type')
      .notNull()
      .references(() => instanceTypes.id),
    status: benchmarkStatus('status').notNull().default('pending'),
    tool: text('tool').notNull(),
    workload: text('workload').notNull(),
    parameters: jsonb('parameters').notNull().default(sql`'{}'::jsonb`),
    results: jsonb('results'),
    operationId: uuid('operation_id'),
    createdAt: createdAt(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    /** Set by the API's cancel; the worker's job stops its client when it sees it. */
    cancelRequestedAt: timestamp('cancel_requested_at', { withTimezone: true }),
    /**
     * The pool address and network namespace of the run's client (region `local`) while it
     * exists: held like a node's address, so the allocator never gives it to a VM, and found
     * again by a retry or a worker start to remove what a crashed worker left.
     */
    clientAddress: text('client_address'),
    clientNamespace: text('client_namespace'),
    /** The same for the run's peer server (Redis / memcached from Debian) in a namespace of its own. */
    peerAddress: text('peer_address'),
    peerNamespace: text('peer_namespace'),
  },
  (t) => [
    index('benchmarks_instance_idx').on(t.instanceId, t.createdAt),
    index('benchmarks_type_idx').on(t.instanceType, t.createdAt),
  ],
);

/**
 * One scenario of a benchmark run as the worker's benchmark job measured it: the exact
 * command line (password masked), its parameters, the headline figures, and the tool's full
 * JSON report. Written only by the job.
 */
export const benchmarkScenarios = pgTable(
  'benchmark_scenarios',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    benchmarkId: uuid('benchmark_id')
      .notNull()
      .references(() => benchmarks.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    name: text('name').notNull(),
    tool: text('tool').notNull(),
    commandLine: text('command_line').notNull(),
    workload: text('workload').notNull(),
    valueSize: integer('value_size'),
    connections: integer('connections').notNull(),
    pipeline: integer('pipeline').notNull(),
    requests: bigint('requests', { mode: 'number' }).notNull(),
    qps: real('qps').notNull(),
    avgLatencyMs: real('avg_latency_ms').notNull(),
    p50LatencyMs: real('p50_latency_ms'),
    p99LatencyMs: real('p99_latency_ms'),
    p999LatencyMs: real('p999_latency_ms'),
    errors: bigint('errors', { mode: 'number' }).notNull(),
    engineVersion: text('engine_version').notNull(),
    instanceType: text('instance_type').notNull(),
    /** Which server was measured: `basalt` (the instance), or the peer (`redis`, `memcached`) of the same run. */
    server: text('server').notNull().default('basalt'),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true }).notNull(),
    report: jsonb('report').notNull(),
  },
  (t) => [uniqueIndex('benchmark_scenarios_position_uq').on(t.benchmarkId, t.position, t.server)],
);

/**
 * A per-type benchmark report (issue 13): the standard suites run by the worker's
 * benchmark_report job on a temporary instance of the type in the platform's own project
 * (never a customer's), each beside its peer; the runs are the benchmarks rows of that
 * instance. Written by the API (the request) and the job (everything after).
 */
export const instanceTypeReports = pgTable(
  'instance_type_reports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    instanceType: text('instance_type')
      .notNull()
      .references(() => instanceTypes.id),
    status: benchmarkStatus('status').notNull().default('pending'),
    /** The suites asked for, in the order they run. */
    suites: text('suites').array().notNull(),
    /** The temporary instance measured; the job deletes it however the report ends. */
    instanceId: uuid('instance_id').references(() => instances.id, { onDelete: 'set null' }),
    operationId: uuid('operation_id'),
    engineVersion: text('engine_version'),
    peers: jsonb('peers').$type<ReportPeer[]>().notNull().default(sql`'[]'::jsonb`),
    /** Where and on what the runs went (host, load, placement of client and servers). */
    environment: text('environment'),
    headline: jsonb('headline').$type<ReportHeadline>(),
    /** The white paper, rendered once by renderBenchmarkReport from the document. */
    markdown: text('markdown'),
    /** Where the figures come from: measured on this install, or a committed report loaded at start. */
    origin: reportOrigin('origin').notNull().default('local'),
    /** The host the runs went on (CPU, cores, memory, kernel), as the report names it. */
    host: text('host'),
    /** The Basalt commit the worker and engine were built from, as the report names it. */
    sourceCommit: text('source_commit'),
    /** The report as one JSON document (what it publishes); markdown, headline, peers and environment are computed from it. */
    document: jsonb('document').$type<TypeReportDocument>(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    index('instance_type_reports_type_idx').on(t.instanceType, t.createdAt),
    // A committed report is loaded once: the same type measured at the same time is the same report.
    uniqueIndex('instance_type_reports_published_uq')
      .on(t.instanceType, t.startedAt)
      .where(sql`${t.origin} = 'published'`),
    // One report of a type at a time.
    uniqueIndex('instance_type_reports_unfinished_uq')
      .on(t.instanceType)
      .where(sql`${t.status} in ('pending', 'running')`),
  ],
);

export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    projectId: uuid('project_id'),
    userId: uuid('user_id'),
    apiKeyId: uuid('api_key_id'),
    method: text('method').notNull(),
    path: text('path').notNull(),
    action: text('action').notNull(),
    statusCode: integer('status_code').notNull(),
    requestId: text('request_id').notNull(),
    ip: text('ip'),
    createdAt: createdAt(),
  },
  (t) => [index('audit_log_project_idx').on(t.projectId, t.id)],
);

export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    principal: text('principal').notNull(),
    key: text('key').notNull(),
    requestHash: text('request_hash').notNull(),
    statusCode: integer('status_code'),
    responseBody: jsonb('response_body'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.principal, t.key] })],
);

/** Facts about the deployment itself, e.g. a check value proving BASALT_MASTER_KEY is unchanged. */
export const controlPlaneSettings = pgTable('control_plane_settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  updatedAt: updatedAt(),
});
