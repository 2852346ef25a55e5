// # Layout
// schema.ts        tables and enums (drizzle); migrations/ is generated from it by drizzle-kit
// migrate.ts       migrate(databaseUrl): applies migrations under an advisory lock
// client.ts        pool + drizzle handle, inTransaction (also yields an executor for pg-boss)
// jobs.ts          queue names and typed job payloads: the contract with services/worker
// secrets.ts       AES-256-GCM for instance-user passwords, password generation
// env-secret.ts    secretFromEnv: NAME or NAME_FILE, how the API and the worker take their secrets
// master-key-check.ts  proves BASALT_MASTER_KEY is the key the stored secrets were sealed with
// catalog.ts       seed data: region `local`, instance types with reference QPS
// repositories/    typed, project-scoped data access used by the API and the worker
// provisioning.ts  the worker's data access by id: instances, operations, events, IPAM (issue 5)
// instance-topology.ts  the typed contract of nodes, endpoints and address allocations (issue 15)
// leases.ts        one connection holding a worker's advisory-lock leases on operations and instances
// type-report.ts   the typed contract of a per-type benchmark report's JSON columns
// operation-start.ts  startOperation: operation row + instance pointer + job, in one transaction
// backup-start.ts     startBackup: a backups row and its backup operation (API, scheduler, final backups)
// rdb-export-start.ts startRdbExport: an rdb_exports row and its operation (no instance pointer)
// object-store.ts, sealed-stream.ts  subpath exports (@basalt/db/object-store, /sealed-stream): the S3 client and streamed sealing the worker and the API share
// operation-kinds.ts   the operation catalogue: each kind's queue, steps, status and turn
export * as schema from './schema.js';
export * from './client.js';
export * from './migrate.js';
export * from './jobs.js';
export * from './secrets.js';
export * from './env-secret.js';
export * from './catalog.js';
export * from './repositories/index.js';
export * from './provisioning.js';
export * from './instance-topology.js';
export * from './type-report.js';
export * from './leases.js';
export * from './operation-start.js';
export * from './backup-start.js';
export * from './operation-kinds.js';
export * from './master-key-check.js';
export * from './host-route.js';
export * from './rdb-export-start.js';
