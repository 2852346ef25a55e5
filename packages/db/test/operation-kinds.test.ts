// The operation catalogue is the one source of each kind's queue, steps and turn: every queue
// carries exactly one kind, every kind's steps are unique names, and the type system refuses a
// step its kind does not have.
import { describe, expect, it } from 'vitest';
import { OPERATION_KINDS, OUT_OF_TURN, QUEUE_KINDS, QUEUES, queueOf, stepsOf, type OperationType, type StepName } from '../src/index.js';

const TYPES = Object.keys(OPERATION_KINDS) as OperationType[];

describe('the operation catalogue', () => {
  it('puts each kind on a queue of its own, and every queue has its kind', () => {
    const queues = TYPES.map((type) => queueOf(type));
    expect(new Set(queues).size).toBe(TYPES.length);
    expect(new Set(queues)).toEqual(new Set(Object.keys(QUEUES)));
    for (const type of TYPES) expect(QUEUE_KINDS[queueOf(type)]).toBe(type);
  });

  it('names each step of a run once, in order', () => {
    for (const type of TYPES) {
      for (const variant of [undefined, ...Object.keys(OPERATION_KINDS[type].variants ?? {})]) {
        const { steps, optional } = stepsOf(type, variant);
        expect(new Set(steps).size, `${type} ${variant ?? ''}`).toBe(steps.length);
        expect(steps.length).toBeGreaterThan(0);
        expect(optional.filter((name) => steps.includes(name)), `${type} ${variant ?? ''}: optional steps already listed`).toEqual([]);
      }
    }
  });

  it('resumes only past steps of its own whose effect outlives the worker', () => {
    for (const type of TYPES) {
      for (const variant of [undefined, ...Object.keys(OPERATION_KINDS[type].variants ?? {})]) {
        const { steps, optional, resumable, kind } = stepsOf(type, variant);
        expect(kind).toBe(type);
        expect(resumable.filter((name) => !steps.includes(name) && !optional.includes(name)), `${type} ${variant ?? ''}`).toEqual([]);
        // A check of the present always runs again.
        expect(resumable).not.toContain('health_check');
      }
    }
    expect(stepsOf('create').resumable).toEqual(['allocate_addresses', 'terraform_apply', 'ansible_deploy']);
    expect(stepsOf('failover').resumable).toEqual([]);
    expect(stepsOf('failover', 'switchover').resumable).toEqual([]);
  });

  it('says which runs wait their turn', () => {
    expect(stepsOf('modify').inTurn).toBe(true);
    expect(stepsOf('failover').inTurn).toBe(false);
    expect(stepsOf('failover', 'switchover').inTurn).toBe(true);
    expect(stepsOf('failover', 'rebuild').inTurn).toBe(false);
    expect(stepsOf('failover', 'switchover').steps).not.toContain('fence_primary');
    // A kind with one run that takes turns stays in the turn query (a failover: its switchover).
    expect([...OUT_OF_TURN].sort()).toEqual(['benchmark_report', 'rdb_export']);
  });

  it('types step names by kind', () => {
    const ok: StepName<'create'> = 'terraform_apply';
    const variant: StepName<'failover'> = 'stop_writes';
    // @ts-expect-error a delete has no ansible deploy
    const wrong: StepName<'delete'> = 'ansible_deploy';
    expect([ok, variant, wrong]).toHaveLength(3);
  });
});
