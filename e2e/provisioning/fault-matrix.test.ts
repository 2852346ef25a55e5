// The fault matrix of issue 45, run by hand (skipped unless BASALT_FAULT_MATRIX is set): for
// each operation kind a standalone instance has and each step of it, a worker armed with the
// test fault hook dies at that step and a second worker converges the operation
// (support/fault-matrix.ts runCell says what is checked); prints kind × step -> converged,
// seconds. worker-killed.test.ts runs a sample of it in every `npm test`.
//
//   BASALT_FAULT_MATRIX=all | <kind>[:<step>],...   which cells (kinds: support/fault-matrix.ts CELL_KINDS)
//   BASALT_FAULT_MATRIX_HOW=kill,kill-group          the passes (default: kill)
//   BASALT_FAULT_MATRIX_AFTER_MS=1000                 how far into each step (default 0: as it starts)
//   BASALT_FAULT_MATRIX_VMS=process | nspawn          the VMs (default process: shorter cells)
// e.g. BASALT_FAULT_MATRIX=all PGDIRNAME=pg-me node /tmp/e2erun/run.mjs e2e provisioning/fault-matrix.test.ts
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startWorkerStack, type WorkerStack } from './support/stack.js';
import { createInstance, waitForOperation, type CreatedInstance } from './support/fixtures.js';
import { CELL_KINDS, cellsOf, matrixTable, runCell, type Cell, type CellResult, type FaultHow } from './support/fault-matrix.js';

const WANTED = (process.env.BASALT_FAULT_MATRIX ?? '').split(',').map((c) => c.trim()).filter(Boolean);
const HOWS = (process.env.BASALT_FAULT_MATRIX_HOW ?? 'kill').split(',').map((h) => h.trim()) as FaultHow[];
const AFTER_MS = Number(process.env.BASALT_FAULT_MATRIX_AFTER_MS ?? 0);

function chosenCells(): Cell[] {
  const all = HOWS.flatMap((how) => CELL_KINDS.flatMap((kind) => cellsOf(kind, how, AFTER_MS)));
  if (WANTED.includes('all')) return all;
  return all.filter((cell) => WANTED.some((w) => w === cell.kind || w === `${cell.kind}:${cell.step}`));
}

const cells = chosenCells();
let stack: WorkerStack;
const results: CellResult[] = [];

describe.skipIf(cells.length === 0)('the fault matrix', () => {
  beforeAll(async () => {
    stack = await startWorkerStack('prov_fault_matrix', { BASALT_LOCAL_VM_KIND: process.env.BASALT_FAULT_MATRIX_VMS ?? 'process' });
  });
  afterAll(async () => {
    console.log(`\nfault matrix (${process.env.BASALT_FAULT_MATRIX_VMS ?? 'process'} VMs)\n${matrixTable(results)}`);
    await stack?.stop();
  }, 600_000);

  /** A running instance made without a fault, for the cells that change one. */
  const fresh = async (name: string): Promise<CreatedInstance> => {
    const worker = stack.startWorker(`setup-${name}`);
    const made = await createInstance(stack, name, 'kv.standard.small');
    const operation = await waitForOperation(stack, made.operationId, 300_000);
    await worker.kill();
    if (operation.status !== 'succeeded') throw new Error(`setting up ${name}: ${JSON.stringify(operation.error)}`);
    return made;
  };

  let subject: CreatedInstance | undefined;
  for (const [index, cell] of cells.entries()) {
    test(`${cell.how} at ${cell.kind}:${cell.step}`, { timeout: 900_000 }, async () => {
      // A change is asked of the instance the last cell left running; a delete takes it.
      if (cell.kind !== 'create' && !subject) subject = await fresh(`subject-${index}`);
      const result = await runCell(stack, cell, cell.kind === 'create' ? undefined : subject, `${index}-${cell.kind}-${cell.step}`);
      results.push(result);
      if (cell.kind === 'delete' || result.problems.length) subject = undefined;
      else if (cell.kind === 'create') subject = result.instance;
      expect(result.problems, result.logs).toEqual([]);
    });
  }
});
