// The failover monitor (issue 15): every interval, PING the primary of every running
// `standard` instance; a primary that misses MISSES_TO_FAIL rounds in a row gets an automatic
// failover operation (its job queued in PostgreSQL, and run here at once); a node a failover
// fenced but could not rebuild gets another rebuild a minute later. One worker at a
// time watches (a lease), so however many workers run, an instance is failed over once; if
// this worker dies mid-failover, its job and operation lease go to another worker. On the
// rounds between, it records each replica's lag (from the primary's INFO replication).
// It also keeps the floating addresses where the row says they are: a VM booted again
// outside a job (a restart of the host) comes back without them, as they live in its network
// namespace; when the primary answers on its own address but nothing answers on an endpoint's
// address for MISSES_TO_FAIL rounds, the address is put back on the node the row names, under
// the instance's lease and only after it was taken off every other node.
import type pg from 'pg';
import type PgBoss from 'pg-boss';
import { instanceLeaseKey, startOperation, type FailoverJob, type InstanceRow } from '@basalt/db';
import { floatingAddressesOf, holdFloatingAddress, readonlyHolder, type FloatingAddresses } from '../engine-deploy.js';
import type { JobContext } from '../context.js';
import type { Node } from '../stack.js';
import { recordedNodes } from '../jobs/nodes.js';
import { EngineReplication } from './engine-replication.js';
import { failover } from './failover.js';
import { LeasedRounds } from '../leased-rounds.js';

/** The statuses in which an instance's primary is watched (its engine runs). */
const WATCHED: InstanceRow['status'][] = ['running', 'modifying', 'restarting'];
/** Rounds in a row a primary must miss before it is failed over (one lost packet is not an outage). */
const MISSES_TO_FAIL = 2;
/** A primary that has not answered PING within this has missed the round. */
const PROBE_TIMEOUT_MS = 800;
/** Replica lag is read every this many rounds. */
const LAG_EVERY = 5;
/** How long after a rebuild attempt the monitor tries again for a node still fenced. */
const REBUILD_RETRY_MS = 60_000;

export class FailoverMonitor {
  private readonly misses = new Map<string, number>();
  /** Instances whose failover this worker runs now. */
  private readonly running = new Set<string>();
  /** When the monitor last started a rebuild of each instance's fenced node. */
  private readonly lastRebuild = new Map<string, number>();
  /** Each instance's floating addresses (they never change for an instance). */
  private readonly floating = new Map<string, FloatingAddresses>();
  /** Rounds in a row a floating address did not answer while its node did, by instance and endpoint. */
  private readonly endpointMisses = new Map<string, number>();
  private readonly loop: LeasedRounds;
  private rounds = 0;

  constructor(
    private readonly ctx: JobContext,
    private readonly pool: pg.Pool,
    private readonly boss: PgBoss,
    intervalMs: number,
  ) {
    this.loop = new LeasedRounds(ctx, 'failover monitor', 'the primaries of standard instances', 'basalt-failover-monitor', intervalMs, () => this.checkAll());
  }

  start(): void {
    this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  private async checkAll(): Promise<void> {
    this.rounds++;
    // An instance being resized or restarted is watched too: a failover preempts that work.
    const standard = (await this.ctx.repo.listInstancesIn(WATCHED)).filter(
      (instance) => instance.architecture === 'standard' && !this.ctx.unavailableRegions.has(instance.region) && !this.running.has(instance.id),
    );
    await Promise.all(standard.map((instance) => this.check(instance)));
  }

  private async check(instance: InstanceRow): Promise<void> {
    const nodes = recordedNodes(instance);
    const primary = nodes.find((node) => node.role === 'primary' && node.status === 'running');
    if (!primary) return;
    if (nodes.some((node) => node.status === 'fenced' || node.status === 'rebuilding')) await this.retryRebuild(instance);
    const engines = new EngineReplication(this.ctx, instance);
    if (await engines.answers(primary, PROBE_TIMEOUT_MS)) {
      this.misses.delete(instance.id);
      await this.keepEndpoints(instance, nodes, engines).catch((error) => this.ctx.log(`[${instance.id}] failover monitor: endpoints: ${(error as Error).message}`));
      if (this.rounds % LAG_EVERY === 0) await this.recordLag(instance, primary, engines).catch(() => {});
      return;
    }
    const missed = (this.misses.get(instance.id) ?? 0) + 1;
    this.misses.set(instance.id, missed);
    if (missed < MISSES_TO_FAIL) return;
    this.misses.delete(instance.id);
    // Failover first: only a failover already on it stops this one; any other work (a resize,
    // a restart) gives the instance up at its next step (jobs/run-operation.ts).
    if (await this.ctx.repo.operations().rescuingFailover(instance.id)) return;
    this.ctx.log(`[${instance.id}] failover monitor: primary ${primary.name} missed ${missed} rounds; failing over`);
    await this.launch(instance, { mode: 'automatic', suspected_primary: primary.name });
  }

  /** Puts a floating address back on the node the row names when nothing answers on it. */
  private async keepEndpoints(instance: InstanceRow, nodes: Node[], engines: EngineReplication): Promise<void> {
    let floating = this.floating.get(instance.id);
    if (!floating) {
      floating = await floatingAddressesOf(this.ctx, instance.id);
      if (!floating) return;
      this.floating.set(instance.id, floating);
    }
    const reader = readonlyHolder(nodes.filter((node) => node.status === 'running'));
    const checked: (keyof FloatingAddresses)[] = reader?.role === 'replica' ? ['primary', 'readonly'] : ['primary'];
    const lost: (keyof FloatingAddresses)[] = [];
    for (const endpoint of checked) {
      const key = `${instance.id}:${endpoint}`;
      if (await engines.addressAnswers(floating[endpoint], PROBE_TIMEOUT_MS)) {
        this.endpointMisses.delete(key);
        continue;
      }
      // As for the primary itself: one slow answer on a loaded host is not a lost address.
      const missed = (this.endpointMisses.get(key) ?? 0) + 1;
      this.endpointMisses.set(key, missed);
      if (missed >= MISSES_TO_FAIL) {
        this.endpointMisses.delete(key);
        lost.push(endpoint);
      }
    }
    if (lost.length === 0) return;
    // The lease keeps every job (failover, switchover, deploy) off the instance while the address moves.
    const lease = await this.ctx.leases.tryLease(instanceLeaseKey(instance.id));
    if (!lease) return;
    try {
      const current = await this.ctx.repo.getInstance(instance.id);
      if (!current || current.status !== 'running' || (await this.operationUnderWay(current))) return;
      const now = recordedNodes(current);
      const holders = { primary: now.find((node) => node.role === 'primary' && node.status === 'running'), readonly: readonlyHolder(now.filter((node) => node.status === 'running')) };
      const region = await this.ctx.catalog.getRegion(current.region);
      if (!region) return;
      for (const endpoint of lost) {
        const holder = holders[endpoint];
        if (!holder || (endpoint === 'readonly' && holder.role !== 'replica')) continue;
        await holdFloatingAddress(this.ctx, region, now, floating[endpoint], holder);
        this.ctx.log(`[${instance.id}] failover monitor: the ${endpoint} endpoint ${floating[endpoint]} did not answer; put back on ${holder.name}`);
      }
    } finally {
      await lease.release();
      // An operation whose turn came while the monitor held the instance waits for this.
      this.ctx.handOver?.(instance.id);
    }
  }

  /** A fenced node whose rebuild failed gets another one, at most every REBUILD_RETRY_MS. */
  private async retryRebuild(instance: InstanceRow): Promise<void> {
    if (Date.now() - (this.lastRebuild.get(instance.id) ?? 0) < REBUILD_RETRY_MS) return;
    if (instance.status !== 'running' || (await this.operationUnderWay(instance))) return;
    this.lastRebuild.set(instance.id, Date.now());
    this.ctx.log(`[${instance.id}] failover monitor: a fenced node waits for its rebuild; trying again`);
    await this.launch(instance, { mode: 'rebuild' });
  }

  private async launch(instance: InstanceRow, job: Omit<FailoverJob, 'instance_id' | 'operation_id'>): Promise<void> {
    const { operation } = await startOperation(this.pool, this.boss, { instance, type: 'failover', userId: null, params: job, job });
    this.running.add(instance.id);
    void failover(this.ctx, { ...job, instance_id: instance.id, operation_id: operation.id })
      .then((outcome) => this.ctx.log(`[${instance.id}] ${job.mode} ${operation.id}: ${outcome}`))
      .catch((error) => this.ctx.log(`[${instance.id}] ${job.mode} ${operation.id}: ${(error as Error).message}`))
      .finally(() => this.running.delete(instance.id));
  }

  /** An operation on the instance has not finished (a failover already started, or a user's change). */
  private async operationUnderWay(instance: InstanceRow): Promise<boolean> {
    if (!instance.currentOperationId) return false;
    const current = await this.ctx.repo.getOperation(instance.currentOperationId);
    return current?.status === 'pending' || current?.status === 'running';
  }

  /**
   * Writes each replica's lag_bytes (as its primary sees it) when it changed: under the
   * instance's lease, to the node list as the row holds it then (a failover or a deploy may
   * have changed it since this round read it), and only while that primary is still the primary.
   */
  private async recordLag(instance: InstanceRow, primary: Node, engines: EngineReplication): Promise<void> {
    if (instance.status !== 'running' || (await this.operationUnderWay(instance))) return;
    const state = await engines.state(primary, PROBE_TIMEOUT_MS);
    const lease = await this.ctx.leases.tryLease(instanceLeaseKey(instance.id));
    if (!lease) return;
    try {
      const current = await this.ctx.repo.getInstance(instance.id);
      if (!current || current.status !== 'running' || (await this.operationUnderWay(current))) return;
      const nodes = recordedNodes(current);
      if (!nodes.some((node) => node.name === primary.name && node.role === 'primary')) return;
      await this.writeLag(current, nodes, state.replicaLag);
    } finally {
      await lease.release();
      this.ctx.handOver?.(instance.id);
    }
  }

  private async writeLag(instance: InstanceRow, nodes: Node[], replicaLag: Map<string, number>): Promise<void> {
    const state = { replicaLag };
    let changed = false;
    const updated = nodes.map((node) => {
      if (node.role !== 'replica') return node;
      const lag = state.replicaLag.get(node.private_ip);
      const next = { ...node, lag_bytes: lag ?? null, status: lag === undefined && node.status === 'running' ? ('unreachable' as const) : node.status === 'unreachable' && lag !== undefined ? ('running' as const) : node.status };
      if (next.lag_bytes !== node.lag_bytes || next.status !== node.status) changed = true;
      return next;
    });
    if (changed) await this.ctx.repo.updateInstance(instance.id, { nodes: updated });
  }
}
