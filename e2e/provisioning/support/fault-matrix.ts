// One cell of the fault matrix (issue 45): a worker armed with the test fault hook
// (services/worker/src/fault-hook.ts) dies at one step of one operation kind; a second worker
// is started, and the cell checks that the operation converged where it was asked to go:
// succeeded, the instance in the state asked for, nothing of it pending, one VM per node and no
// more, its pool addresses and Terraform workspace exactly while it lives, no Terraform or
// Ansible run left, no errored state left behind. The matrix (fault-matrix.test.ts) runs every
// cell; worker-killed.test.ts runs a sample.
import fs from 'node:fs';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { schema, stepsOf, type OperationType } from '@basalt/db';
import type { WorkerStack } from './stack.js';
import { createInstance, getInstance, getOperation, operationEvents, requestOperation, type CreatedInstance } from './fixtures.js';

export type FaultHow = 'kill' | 'kill-group';
/** The kinds a cell can ask for on a standalone instance (a failover needs a standard one, backups a store). */
export const CELL_KINDS = ['create', 'modify', 'restart', 'apply_users', 'apply_allowlist', 'delete'] as const satisfies readonly OperationType[];
export type CellKind = (typeof CELL_KINDS)[number];

export interface Cell {
  kind: CellKind;
  step: string;
  how: FaultHow;
  /** Into the step's work (fault-hook.ts `@ms`); 0: as it starts. */
  afterMs?: number;
}

export interface CellResult {
  cell: Cell;
  /** The worker died at the step (false: the run never reached it). */
  fired: boolean;
  /** Seconds from the kill to the operation's end. */
  seconds: number;
  /** What did not hold; empty when the cell converged. */
  problems: string[];
  /** The steps the retry resumed past (its step_skipped events). */
  skipped: string[];
  /** The two workers' last log lines, when the cell did not converge. */
  logs?: string;
  instanceId: string;
}

/** The cells of a kind: one per step of its main run. */
export function cellsOf(kind: CellKind, how: FaultHow, afterMs = 0): Cell[] {
  return stepsOf(kind).steps.map((step) => ({ kind, step, how, afterMs }));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** How long an operation may stay unfinished after its worker was killed. */
const CONVERGE_MS = 300_000;
const REACH_MS = 180_000;

/**
 * Runs one cell. `subject`: the running instance a change is asked of (and deleted by a delete
 * cell); a create cell makes its own and returns it. No worker may be running when it starts:
 * the armed one must be the one that takes the operation.
 */
export async function runCell(stack: WorkerStack, cell: Cell, subject?: CreatedInstance, label = `${cell.kind}-${cell.step}`): Promise<CellResult & { instance: CreatedInstance }> {
  const armed = stack.startWorker(`armed-${label}`, { BASALT_TEST_FAULTS: '1', BASALT_FAULT: `${cell.how}:${cell.kind}:${cell.step}${cell.afterMs ? `@${cell.afterMs}` : ''}` });
  let instance = subject;
  let operationId: string;
  if (cell.kind === 'create') {
    instance = await createInstance(stack, label.replaceAll('_', '-').slice(0, 40), 'kv.standard.small');
    operationId = instance.operationId;
  } else {
    if (!instance) throw new Error(`a ${cell.kind} cell needs a running instance`);
    operationId = await requestOperation(stack, instance.id, QUEUE_OF[cell.kind], paramsOf(cell.kind, (await getInstance(stack, instance.id)).instanceType));
  }
  const deadline = Date.now() + REACH_MS;
  while (armed.running() && Date.now() < deadline) {
    const operation = await getOperation(stack, operationId);
    if (operation.status === 'succeeded' || operation.status === 'failed') break;
    await sleep(100);
  }
  const fired = !armed.running();
  // One that never reached its step is killed as well: it is the fault's worker either way.
  await armed.kill('SIGKILL');
  const killedAt = Date.now();
  // Its children die with it (the kernel, within the group keeper's 3 s), as worker-killed.test.ts checks.
  const rescuer = stack.startWorker(`rescuer-${label}`);
  const problems: string[] = [];
  let operation = await getOperation(stack, operationId);
  while (operation.status !== 'succeeded' && operation.status !== 'failed' && Date.now() - killedAt < CONVERGE_MS) {
    await sleep(250);
    operation = await getOperation(stack, operationId);
  }
  const seconds = (Date.now() - killedAt) / 1000;
  if (operation.status !== 'succeeded') problems.push(`operation ${operation.status}${operation.error ? `: ${JSON.stringify(operation.error)}` : ''}`);
  problems.push(...(await leftovers(stack, instance!.id, cell.kind === 'delete' ? 'deleted' : 'running')));
  const logs = problems.length ? `armed:\n${armed.log().slice(-2500)}\nrescuer:\n${rescuer.log().slice(-2500)}` : undefined;
  await rescuer.kill();
  const skipped = (await operationEvents(stack, operationId)).filter((e) => e.kind === 'step_skipped').map((e) => e.step!);
  if (!fired) problems.push(`the run never reached ${cell.step}`);
  return { cell, fired, seconds, problems, skipped, logs, instanceId: instance!.id, instance: instance! };
}

const QUEUE_OF = { create: 'provision', modify: 'modify', restart: 'restart', apply_users: 'applyUsers', apply_allowlist: 'applyAllowlist', delete: 'delete' } as const;

/** A modify that changes something: the other of two types, so Terraform and Ansible both act. */
function paramsOf(kind: CellKind, currentType: string): Record<string, unknown> {
  if (kind !== 'modify') return {};
  const next = currentType === 'kv.standard.small' ? 'kv.standard.large' : 'kv.standard.small';
  return { changes: { instance_type: next }, target: { instance_type: next, disk_gib: 10, parameters: {} } };
}

/** What an instance in state `wanted` must not have: anything beyond its own nodes, or anything at all once deleted. */
export async function leftovers(stack: WorkerStack, instanceId: string, wanted: 'running' | 'deleted'): Promise<string[]> {
  const problems: string[] = [];
  const row = await getInstance(stack, instanceId);
  if (row.status !== wanted) problems.push(`instance ${row.status}, not ${wanted}`);
  const unfinished = await stack.database.db
    .select({ id: schema.operations.id, type: schema.operations.type, status: schema.operations.status })
    .from(schema.operations)
    .where(sql`${schema.operations.instanceId} = ${instanceId} and ${schema.operations.status} in ('pending', 'running')`);
  if (unfinished.length) problems.push(`operations unfinished: ${unfinished.map((o) => `${o.type} ${o.status}`).join(', ')}`);
  const nodes = wanted === 'running' ? row.nodes.length : 0;
  const vmsDir = path.join(stack.dataDir, 'vms');
  const vms = fs.existsSync(vmsDir) ? fs.readdirSync(vmsDir).filter((name) => name.startsWith(instanceId)) : [];
  if (vms.length !== nodes) problems.push(`${vms.length} VM(s) for ${nodes} node(s): ${vms.join(', ')}`);
  const addresses = await stack.database.db.select().from(schema.addressAllocations).where(eq(schema.addressAllocations.instanceId, instanceId));
  const nodeAddresses = addresses.filter((a) => a.kind === 'node').length;
  if (nodeAddresses !== nodes) problems.push(`${nodeAddresses} node address(es) held for ${nodes} node(s)`);
  if (wanted === 'deleted' && addresses.length) problems.push(`${addresses.length} address(es) still held`);
  const states = await stack.database.pool
    .query<{ n: string }>(`select count(*) as n from terraform_state.states where name = $1`, [instanceId])
    .then((r) => Number(r.rows[0]!.n))
    .catch(() => 0);
  if (states !== (wanted === 'running' ? 1 : 0)) problems.push(`${states} Terraform workspace(s)`);
  const tfDir = path.join(stack.dataDir, 'terraform', instanceId);
  if (fs.existsSync(path.join(tfDir, 'errored.tfstate'))) problems.push('errored.tfstate left behind');
  const runs = toolRuns(stack.dataDir);
  if (runs.length) problems.push(`tool runs left: ${runs.join('; ')}`);
  return problems;
}

/** Terraform and Ansible runs of a stack still alive: their working dir or arguments name its data dir. */
export function toolRuns(dataDir: string): string[] {
  const left: string[] = [];
  for (const pid of fs.readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      if (!/^(terraform|ansible)/.test(fs.readFileSync(`/proc/${pid}/comm`, 'utf8'))) continue;
      const args = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
      if (fs.readlinkSync(`/proc/${pid}/cwd`).startsWith(dataDir) || args.includes(dataDir)) left.push(`${pid} ${args}`);
    } catch {
      // exited meanwhile
    }
  }
  return left;
}

/** The matrix as a table: kind × step -> converged (seconds), or what did not hold. */
export function matrixTable(results: CellResult[]): string {
  const lines = ['| kind | step | fault | converged | seconds | retry skipped |', '|---|---|---|---|---|---|'];
  for (const r of results) {
    const verdict = r.problems.length ? `no: ${r.problems.join('; ')}` : 'yes';
    lines.push(`| ${r.cell.kind} | ${r.cell.step} | ${r.cell.how}${r.cell.afterMs ? `@${r.cell.afterMs}` : ''} | ${verdict} | ${r.seconds.toFixed(1)} | ${[...new Set(r.skipped)].join(', ') || '-'} |`);
  }
  return lines.join('\n');
}
