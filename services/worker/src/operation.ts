// One operation's progress as the console streams it: named steps with their status,
// a progress figure, and events appended as the tools report them. The step list is also the
// operation's memory across attempts: a retry after a killed worker resumes past the
// resumable steps it finds finished there (@basalt/db operation-kinds.ts), up to the first
// step that has to run.
import type { OperationEventInput, OperationType, ProvisioningRepository } from '@basalt/db';
import { faultOf, StepError, type Fault } from './errors.js';
import { faultAt } from './fault-hook.js';

export interface StepRecord {
  name: string;
  status: 'pending' | 'running' | 'succeeded' | 'failed';
  started_at?: string;
  finished_at?: string;
  /**
   * A resumable step's finished runs, by key: '' for a step run once, a node's name for one a
   * rolling deploy runs per node. A key leaves while its step runs again.
   */
  done?: string[];
}

/** How a skipped step's result is had again, and which of the step's runs this is. */
export interface Resume<T> {
  /** The run of a step taken once per node (its name); '' or absent for a step run once. */
  key?: string;
  /** The result the step returned, read back from where its effect lives (the database, the state). */
  recall: () => Promise<T>;
}

/**
 * Thrown at a step's start when a failover the monitor started needs the instance: the run
 * gives the instance up and waits, its finished steps kept, to resume once the failover is done
 * (jobs/run-operation.ts), against the topology the failover left.
 */
export class Preempted extends Error {
  constructor(
    readonly step: string,
    readonly by: string,
  ) {
    super(`preempted at ${step} by failover ${by}`);
  }
}

/** For a step whose result nobody reads. */
export const RECALL_NOTHING: Resume<void>['recall'] = async () => {};

export interface RetryPolicy {
  attempts: number;
  baseDelayMs: number;
}

const NO_RETRY: RetryPolicy = { attempts: 1, baseDelayMs: 0 };

/** The steps one run may take: its kind's, from the catalogue (@basalt/db operation-kinds.ts). */
export interface StepList<S extends string> {
  /** The operation's kind (the test fault hook names steps by it). */
  kind?: OperationType;
  steps: readonly S[];
  /** Shown only once run (a standard instance's floating addresses). */
  optional?: readonly S[];
  /** Skipped by a retry when an earlier attempt finished them (only before the first step that runs). */
  resumable?: readonly S[];
}

/**
 * `S`: the step names this run may take. A function that runs some steps of any operation
 * takes `OperationRun<'its' | 'steps'>`, and only a run whose kind has those steps is
 * accepted there (`step` is a property, so its parameter is checked contravariantly).
 */
export class OperationRun<S extends string = string> {
  private readonly steps: StepRecord[];
  private readonly known: ReadonlySet<string>;
  private readonly resumable: ReadonlySet<string>;
  private readonly kind: OperationType | undefined;
  /** True while nothing has run yet in a retry that found finished steps: skipping is allowed. */
  private resuming = false;
  /** Asked before each step runs; throws Preempted when the run must give the instance up. */
  beforeStep?: (name: string) => Promise<void>;

  constructor(
    private readonly repo: ProvisioningRepository,
    readonly operationId: string,
    list: StepList<S>,
    private readonly log: (message: string) => void = () => {},
  ) {
    this.steps = list.steps.map((name) => ({ name, status: 'pending' }));
    this.known = new Set([...list.steps, ...(list.optional ?? [])]);
    this.resumable = new Set(list.resumable ?? []);
    this.kind = list.kind;
  }

  /**
   * Marks the operation running. `earlier`: the steps an earlier attempt recorded (the
   * operation row's); the resumable ones it finished stay finished, every other starts over.
   */
  async start(earlier: unknown = []): Promise<void> {
    const kept: string[] = [];
    for (const before of recordsOf(earlier)) {
      const done = before.done?.filter((key) => typeof key === 'string') ?? [];
      if (!this.resumable.has(before.name) || done.length === 0) continue;
      const record = this.steps.find((s) => s.name === before.name) ?? this.addStep(before.name);
      Object.assign(record, { status: before.status === 'succeeded' ? 'succeeded' : 'pending', started_at: before.started_at, finished_at: before.finished_at, done });
      kept.push(done.some((key) => key !== '') ? `${before.name} (${done.join(', ')})` : before.name);
    }
    this.resuming = kept.length > 0;
    await this.repo.updateOperation(this.operationId, {
      status: 'running',
      startedAt: new Date(),
      steps: this.steps,
      progress: this.progress(),
      error: null,
      finishedAt: null,
    });
    if (kept.length > 0) await this.event('operation_resumed', null, `an earlier attempt finished ${kept.join(', ')}: not run again`, { finished: kept });
  }

  /**
   * Whether the next run of step `name` (its `key`) is skipped: a retry still resuming (no
   * step has run yet) of a resumable step an earlier attempt finished.
   */
  willSkip(name: S, key = ''): boolean {
    return this.resuming && this.resumable.has(name) && (this.steps.find((s) => s.name === name)?.done ?? []).includes(key);
  }

  /**
   * Runs one step; transient failures are tried again with exponential backoff. With `resume`,
   * a step the retry resumes past is not run: its result is recalled instead. Any step that
   * runs ends the resuming: every step after it runs too (it may have changed their premise).
   */
  readonly step = async <T>(name: S, work: () => Promise<T>, retry: RetryPolicy = NO_RETRY, resume?: Resume<T>): Promise<T> => {
    // The type system checks names where the run's kind is known; this catches the rest.
    if (!this.known.has(name)) throw new StepError(name, `${name} is not a step of this operation's kind (@basalt/db OPERATION_KINDS)`);
    const key = resume?.key ?? '';
    const record = this.steps.find((s) => s.name === name) ?? this.addStep(name);
    if (resume && this.willSkip(name, key)) {
      await this.event('step_skipped', name, `${name}${key ? ` (${key})` : ''}: finished by an earlier attempt`);
      return resume.recall();
    }
    await this.beforeStep?.(name);
    this.resuming = false;
    record.status = 'running';
    record.started_at = new Date().toISOString();
    delete record.finished_at;
    if (record.done) record.done = record.done.filter((k) => k !== key);
    await this.saveSteps();
    await this.event('step_started', name, `${name} started`);
    // A test's fault (fault-hook.ts): the worker dies here, while the work runs or as it ends.
    const fault = this.kind ? faultAt(this.kind, name) : undefined;
    const attemptWork = fault ? () => fault.during(work) : work;
    for (let attempt = 1; ; attempt++) {
      try {
        const result = await attemptWork();
        record.status = 'succeeded';
        record.finished_at = new Date().toISOString();
        if (this.resumable.has(name)) record.done = [...(record.done ?? []), key];
        await this.saveSteps();
        await this.event('step_succeeded', name, `${name} succeeded`);
        return result;
      } catch (error) {
        const transient = error instanceof StepError && error.transient;
        if (transient && attempt < retry.attempts) {
          const delay = retry.baseDelayMs * 2 ** (attempt - 1);
          await this.event('step_retry', name, `${name} failed (attempt ${attempt}), trying again in ${delay} ms: ${(error as Error).message}`);
          await new Promise((r) => setTimeout(r, delay));
          continue;
        }
        record.status = 'failed';
        record.finished_at = new Date().toISOString();
        await this.saveSteps();
        const fault = faultOf(name, error);
        await this.event('step_failed', name, fault.message, { exit_code: fault.exit_code, output_tail: fault.output_tail });
        throw error instanceof StepError ? error : new StepError(name, fault.message);
      }
    }
  };

  async event(kind: string, step: string | null, message: string, data?: unknown): Promise<void> {
    const event = { kind, step, message, data };
    this.logEvent(event);
    await this.repo.addEvent(this.operationId, event);
  }

  async succeed(): Promise<void> {
    const event = { kind: 'operation_succeeded', step: null, message: 'operation succeeded' };
    this.logEvent(event);
    await this.repo.finishOperation(this.operationId, { status: 'succeeded', progress: 100, finishedAt: new Date() }, event);
  }

  /** Gives the operation back to the queue of its instance (Preempted): pending, its steps kept. */
  async pause(reason: string): Promise<void> {
    await this.repo.updateOperation(this.operationId, { status: 'pending' });
    await this.event('operation_preempted', null, `${reason}; resumes once it is done`);
  }

  async fail(fault: Fault): Promise<void> {
    const event = { kind: 'operation_failed', step: fault.step, message: fault.message, data: fault };
    this.logEvent(event);
    await this.repo.finishOperation(this.operationId, { status: 'failed', error: fault, finishedAt: new Date() }, event);
  }

  private logEvent({ kind, step, message }: OperationEventInput): void {
    this.log(`[${this.operationId}] ${kind}${step ? ` ${step}` : ''}: ${message}`);
  }

  private addStep(name: string): StepRecord {
    const record: StepRecord = { name, status: 'pending' };
    this.steps.push(record);
    return record;
  }

  private progress(): number {
    const done = this.steps.filter((s) => s.status === 'succeeded').length;
    return Math.min(Math.floor((done / Math.max(this.steps.length, 1)) * 100), 99);
  }

  private async saveSteps(): Promise<void> {
    await this.repo.updateOperation(this.operationId, { steps: this.steps, progress: this.progress() });
  }
}

/** The step records of an operation row (a JSON column: anything else in it is ignored). */
function recordsOf(value: unknown): StepRecord[] {
  if (!Array.isArray(value)) return [];
  return value.filter((r): r is StepRecord => typeof r?.name === 'string' && typeof r?.status === 'string' && (r.done === undefined || Array.isArray(r.done)));
}
