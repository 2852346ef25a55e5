// The worker's data access (services/worker, issue 5): instances, operations and their
// events by id (a job carries no user) and address allocation from a region's pool (leases
// are in leases.ts). Kept apart from the API's project-scoped repositories; every query of
// the worker goes through here.
import { and, asc, eq, inArray, ne, notInArray, sql } from 'drizzle-orm';
import type pg from 'pg';
import type { Db } from './client.js';
import type { AddressAllocation, InstanceEndpoint, InstanceNode } from './instance-topology.js';
import { addressAllocations, allowlistEntries, benchmarks, instances, instanceUsers, operationEvents, operations } from './schema.js';
import { ControlCredentialsRepository } from './repositories/control-credentials.repository.js';
import { BenchmarksRepository } from './repositories/benchmarks.repository.js';
import { OperationsRepository } from './repositories/operations.repository.js';
import { TypeReportsRepository } from './repositories/type-reports.repository.js';
import { BackupsRepository } from './repositories/backups.repository.js';
import { RdbFilesRepository } from './repositories/rdb-files.repository.js';
import { STATUS_FIELDS, statusOwner, type OperationType } from './operation-kinds.js';

export type InstanceRow = typeof instances.$inferSelect;
export type OperationRow = typeof operations.$inferSelect;
export type InstanceUserRow = typeof instanceUsers.$inferSelect;
export type AllowlistEntryRow = typeof allowlistEntries.$inferSelect;
export type InstanceStatus = InstanceRow['status'];
export type OperationStatus = OperationRow['status'];

/** Statuses of an instance whose delete was asked for; nothing but the delete moves it out of them. */
export const DELETE_STATUSES: InstanceStatus[] = ['deleting', 'deleted'];

export interface InstancePatch {
  status?: InstanceStatus;
  /** Written by a modify once it succeeded (ModifyTarget). */
  instanceType?: string;
  diskGib?: number;
  parameters?: Record<string, unknown>;
  health?: InstanceRow['health'];
  healthReason?: string | null;
  fault?: unknown;
  nodes?: InstanceNode[];
  endpoints?: InstanceEndpoint[];
  deletedAt?: Date | null;
  currentOperationId?: string | null;
}

export interface OperationPatch {
  status?: OperationStatus;
  progress?: number;
  steps?: unknown[];
  error?: unknown;
  startedAt?: Date;
  finishedAt?: Date | null;
}

export interface OperationEventInput {
  kind: string;
  step?: string | null;
  message: string;
  data?: unknown;
}

function eventValues(operationId: string, event: OperationEventInput) {
  return { operationId, kind: event.kind, step: event.step ?? null, message: event.message, data: event.data ?? null };
}

export class ProvisioningRepository {
  constructor(
    private readonly db: Db,
    private readonly pool: pg.Pool,
  ) {}

  async getInstance(id: string): Promise<InstanceRow | undefined> {
    const [row] = await this.db.select().from(instances).where(eq(instances.id, id));
    return row;
  }

  /**
   * Writes the patch; false when nothing was written. A delete, once asked for, wins: a
   * patch that sets any other status leaves an instance that is `deleting` or `deleted` as
   * it is, so a provision or modify finishing late never writes `creating` or `running`
   * over a requested delete.
   */
  async updateInstance(id: string, patch: InstancePatch): Promise<boolean> {
    const guarded = patch.status !== undefined && !DELETE_STATUSES.includes(patch.status);
    // A health set without its reason (a job that just checked the endpoints) has none.
    if (patch.health !== undefined && patch.healthReason === undefined) patch = { ...patch, healthReason: null };
    const rows = await this.db
      .update(instances)
      .set({ ...patch, updatedAt: new Date() } as Partial<InstanceRow>)
      .where(guarded ? and(eq(instances.id, id), notInArray(instances.status, DELETE_STATUSES)) : eq(instances.id, id))
      .returning({ id: instances.id });
    return rows.length > 0;
  }

  /**
   * Writes what an operation of `type` leaves on the instance: every field of the patch, but
   * status, health and fault only while the instance is still in the status the operation owns
   * (operation-kinds.ts); a kind that owns no status never writes them. False when the status
   * was not written.
   */
  async updateInstanceAs(type: OperationType, id: string, patch: InstancePatch): Promise<boolean> {
    const owned: InstancePatch = {};
    const rest: InstancePatch = {};
    for (const [key, value] of Object.entries(patch)) {
      if (value === undefined) continue;
      ((STATUS_FIELDS as readonly string[]).includes(key) ? owned : rest)[key as keyof InstancePatch] = value as never;
    }
    if (Object.keys(rest).length > 0) await this.updateInstance(id, rest);
    const owner = statusOwner(type);
    if (!owner || Object.keys(owned).length === 0) return false;
    if (owned.health !== undefined && owned.healthReason === undefined) owned.healthReason = null;
    const rows = await this.db
      .update(instances)
      .set({ ...owned, updatedAt: new Date() } as Partial<InstanceRow>)
      .where(and(eq(instances.id, id), eq(instances.status, owner.during)))
      .returning({ id: instances.id });
    return rows.length > 0;
  }

  /** Instances whose status is `running`: what the health monitor watches. */
  listRunningInstances(): Promise<InstanceRow[]> {
    return this.db.select().from(instances).where(eq(instances.status, 'running'));
  }

  /** Instances in any of `statuses` (the archiver's: those whose engine runs). */
  listInstancesIn(statuses: InstanceRow['status'][]): Promise<InstanceRow[]> {
    return this.db.select().from(instances).where(inArray(instances.status, statuses));
  }

  /** Sets health and its reason, only while the instance is `running`; false when it was not. */
  async updateHealthIfRunning(id: string, health: NonNullable<InstanceRow['health']>, reason: string | null): Promise<boolean> {
    const rows = await this.db
      .update(instances)
      .set({ health, healthReason: reason, updatedAt: new Date() })
      .where(and(eq(instances.id, id), eq(instances.status, 'running')))
      .returning({ id: instances.id });
    return rows.length > 0;
  }

  listUsers(instanceId: string): Promise<InstanceUserRow[]> {
    return this.db
      .select()
      .from(instanceUsers)
      .where(eq(instanceUsers.instanceId, instanceId))
      .orderBy(asc(instanceUsers.createdAt), asc(instanceUsers.username));
  }

  /** The control plane's own engine user of each instance (its passwords are sealed with `masterKey`). */
  controlCredentials(masterKey: Buffer): ControlCredentialsRepository {
    return new ControlCredentialsRepository(this.db, masterKey);
  }

  /** Benchmark runs and their scenarios (the benchmark job records its progress there). */
  benchmarks(): BenchmarksRepository {
    return new BenchmarksRepository(this.db);
  }

  /** Backups and the log archive (the backup job and the archiver record their progress there). */
  backups(): BackupsRepository {
    return new BackupsRepository(this.db);
  }

  /** RDB exports (the export job records what it made) and imports (a restore reads them). */
  rdbFiles(): RdbFilesRepository {
    return new RdbFilesRepository(this.db);
  }

  /** Per-type benchmark reports (the benchmark_report job records its progress there). */
  typeReports(): TypeReportsRepository {
    return new TypeReportsRepository(this.db);
  }

  /** Operations by project (the benchmark_report job starts its temporary instance's). */
  operations(): OperationsRepository {
    return new OperationsRepository(this.db);
  }

  listAllowlist(instanceId: string): Promise<AllowlistEntryRow[]> {
    return this.db
      .select()
      .from(allowlistEntries)
      .where(eq(allowlistEntries.instanceId, instanceId))
      .orderBy(asc(allowlistEntries.cidr));
  }

  async getOperation(id: string): Promise<OperationRow | undefined> {
    const [row] = await this.db.select().from(operations).where(eq(operations.id, id));
    return row;
  }

  async updateOperation(id: string, patch: OperationPatch): Promise<void> {
    await this.db
      .update(operations)
      .set({ ...patch, updatedAt: new Date() } as Partial<OperationRow>)
      .where(eq(operations.id, id));
  }

  async addEvent(operationId: string, event: OperationEventInput): Promise<void> {
    await this.db.insert(operationEvents).values(eventValues(operationId, event));
  }

  /**
   * An operation's final status and its last event, in one transaction: a reader that sees
   * the status finished (the API's event stream) then finds every event, this one included.
   */
  async finishOperation(id: string, patch: OperationPatch & { status: 'succeeded' | 'failed' }, event: OperationEventInput): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.update(operations).set({ ...patch, updatedAt: new Date() } as Partial<OperationRow>).where(eq(operations.id, id));
      await tx.insert(operationEvents).values(eventValues(id, event));
    });
  }

  /** Operations not finished yet, oldest first: what a worker reconciles at start. */
  listUnfinishedOperations(types: OperationRow['type'][]): Promise<OperationRow[]> {
    return this.db
      .select()
      .from(operations)
      .where(and(inArray(operations.status, ['pending', 'running']), inArray(operations.type, types)))
      .orderBy(asc(operations.createdAt));
  }

  /**
   * Gives the instance the addresses it wants from the region's pool (CIDR), like a cloud's
   * IPAM: the lowest free host addresses, skipping `reserved` (network, gateway). A name the
   * instance already holds keeps its address. Serialised per region by an advisory lock, so
   * concurrent workers never hand out one address twice. Addresses of deleted instances are
   * free again. Returned in the order of `wanted`.
   */
  async allocateAddresses(
    instanceId: string,
    region: string,
    poolCidr: string,
    wanted: Pick<AddressAllocation, 'name' | 'kind'>[],
    reserved: string[],
  ): Promise<AddressAllocation[]> {
    return this.db.transaction(async (tx) => {
      await lockPool(tx, region);
      await tx.execute(sql`DELETE FROM address_allocations a USING instances i
        WHERE a.instance_id = i.id AND i.status = 'deleted' AND a.region = ${region}`);
      const held = new Map((await allocationsOf(tx, instanceId)).map((a) => [a.name, a]));
      const taken = new Set([...reserved, ...(await takenAddresses(tx, region))]);
      const free = hostAddresses(poolCidr);
      const given: AddressAllocation[] = [];
      for (const want of wanted) {
        const mine = held.get(want.name);
        if (mine) {
          given.push(mine);
          continue;
        }
        let next = free.next();
        while (!next.done && taken.has(next.value)) next = free.next();
        if (next.done) throw new Error(`region ${region}: no free address left in ${poolCidr}`);
        taken.add(next.value);
        await tx.insert(addressAllocations).values({ region, address: next.value, instanceId, name: want.name, kind: want.kind });
        given.push({ name: want.name, kind: want.kind, address: next.value });
      }
      return given;
    });
  }

  /** The addresses the instance holds. */
  listAddresses(instanceId: string): Promise<AddressAllocation[]> {
    return allocationsOf(this.db, instanceId);
  }

  /** Gives the instance's addresses back to the pool: those named, or all of them. */
  async releaseAddresses(instanceId: string, addresses?: string[]): Promise<void> {
    await this.db
      .delete(addressAllocations)
      .where(and(eq(addressAllocations.instanceId, instanceId), addresses ? inArray(addressAllocations.address, addresses) : undefined));
  }

  /**
   * Gives a benchmark run's client (or its peer server) an address of the region's pool (a
   * network namespace on the bridge, region `local`), under the same lock and from the same
   * free list as the nodes, and records it with its namespace on the run: no VM is ever given
   * it while the run holds it. A run that already holds one keeps it.
   */
  async allocateClientAddress(benchmarkId: string, region: string, poolCidr: string, namespace: string, reserved: string[], role: RunAddressRole = 'client'): Promise<string> {
    const [addressColumn, namespaceColumn] = role === 'client' ? (['clientAddress', 'clientNamespace'] as const) : (['peerAddress', 'peerNamespace'] as const);
    return this.db.transaction(async (tx) => {
      await lockPool(tx, region);
      const [mine] = await tx.select({ address: benchmarks[addressColumn] }).from(benchmarks).where(eq(benchmarks.id, benchmarkId));
      if (mine?.address) {
        await tx.update(benchmarks).set({ [namespaceColumn]: namespace }).where(eq(benchmarks.id, benchmarkId));
        return mine.address;
      }
      const taken = new Set([...reserved, ...(await takenAddresses(tx, region))]);
      // From the top of the pool down: nodes are given the lowest free addresses (by every
      // control plane sharing the bridge), so a run's short-lived addresses stay clear of them.
      for (const address of [...hostAddresses(poolCidr)].reverse()) {
        if (taken.has(address)) continue;
        await tx.update(benchmarks).set({ [addressColumn]: address, [namespaceColumn]: namespace }).where(eq(benchmarks.id, benchmarkId));
        return address;
      }
      throw new Error(`region ${region}: no free address left in ${poolCidr} for a benchmark ${role}`);
    });
  }

  /** The run's client (or peer) is gone (its namespace removed): its address is free again. */
  async releaseClientAddress(benchmarkId: string, role: RunAddressRole = 'client'): Promise<void> {
    const values = role === 'client' ? { clientAddress: null, clientNamespace: null } : { peerAddress: null, peerNamespace: null };
    await this.db.update(benchmarks).set(values).where(eq(benchmarks.id, benchmarkId));
  }

  /** Runs that still record a client namespace, with their status (a worker's start sweeps finished ones). */
  listBenchmarkClients(): Promise<{ id: string; status: string; namespace: string | null; peerNamespace: string | null; instanceId: string | null; operationId: string | null }[]> {
    return this.db
      .select({ id: benchmarks.id, status: benchmarks.status, namespace: benchmarks.clientNamespace, peerNamespace: benchmarks.peerNamespace, instanceId: benchmarks.instanceId, operationId: benchmarks.operationId })
      .from(benchmarks)
      .where(sql`${benchmarks.clientNamespace} IS NOT NULL OR ${benchmarks.peerNamespace} IS NOT NULL`);
  }
}

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** Who of a benchmark run holds a pool address: its client, or its peer server. */
export type RunAddressRole = 'client' | 'peer';

/** One allocation at a time per region, across every worker. */
async function lockPool(tx: Tx, region: string): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${'basalt-ipam:' + region}, 0))`);
}

function allocationsOf(db: Db | Tx, instanceId: string): Promise<AddressAllocation[]> {
  return db
    .select({ name: addressAllocations.name, kind: addressAllocations.kind, address: addressAllocations.address })
    .from(addressAllocations)
    .where(eq(addressAllocations.instanceId, instanceId))
    .orderBy(asc(addressAllocations.createdAt), asc(addressAllocations.name));
}

/** Addresses held in a region: every live instance's, and every benchmark client's and peer's whose instance is there. */
async function takenAddresses(tx: Tx, region: string): Promise<string[]> {
  const held = await tx
    .select({ address: addressAllocations.address })
    .from(addressAllocations)
    .innerJoin(instances, eq(instances.id, addressAllocations.instanceId))
    .where(and(eq(addressAllocations.region, region), ne(instances.status, 'deleted')));
  const runs = await tx
    .select({ client: benchmarks.clientAddress, peer: benchmarks.peerAddress })
    .from(benchmarks)
    .innerJoin(instances, eq(instances.id, benchmarks.instanceId))
    .where(and(eq(instances.region, region), sql`(${benchmarks.clientAddress} IS NOT NULL OR ${benchmarks.peerAddress} IS NOT NULL)`));
  return [...held.map((a) => a.address), ...runs.flatMap((r) => [r.client, r.peer].filter((a): a is string => a !== null))];
}

/** Host addresses of an IPv4 CIDR in order (network and broadcast addresses left out). */
export function* hostAddresses(cidr: string): Generator<string> {
  const match = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\/(\d{1,2})$/.exec(cidr.trim());
  if (!match) throw new Error(`not an IPv4 CIDR: ${cidr}`);
  const octets = match.slice(1, 5).map(Number);
  const prefix = Number(match[5]);
  if (octets.some((o) => o > 255) || prefix > 30 || prefix < 8) throw new Error(`unsupported CIDR: ${cidr}`);
  const address = ((octets[0]! << 24) | (octets[1]! << 16) | (octets[2]! << 8) | octets[3]!) >>> 0;
  const mask = (~0 << (32 - prefix)) >>> 0;
  const base = (address & mask) >>> 0;
  const size = 2 ** (32 - prefix);
  for (let offset = 1; offset < size - 1; offset++) {
    const n = (base + offset) >>> 0;
    yield [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
  }
}
