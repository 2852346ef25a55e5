// One operation's progress as the console streams it: named steps with their status,
// a progress figure, and events appended as the tools report them.
import type { OperationEventInput, ProvisioningRepository } from '@basalt/db';
import { faultOf, StepError, type Fault } from './errors.js';

export interface StepRecord {
  name: string;
  status: 'pending' | 'running' | 'succeeded' | 'failed';
  started_at?: string;
  finished_at?: string;
}

export interface RetryPolicy {
  attempts: number;
  baseDelayMs: number;
}

const NO_RETRY: RetryPolicy = { attempts: 1, baseDelayMs: 0 };

/** The steps one run may take: its kind's, from the catalogue (@basalt/db operation-kinds.ts). */
export interface StepList<S extends string> {
  steps: readonly S[];
  /** Shown only once run (a standard instance's floating addresses). */
  optional?: readonly S[];
}

/**
 * `S`: the step names this run may take. A function that runs some steps of any operation
 * takes `OperationRun<'its' | 'steps'>`, and only a run whose kind has those steps is
 * accepted there (`step` is a property, so its parameter is checked contravariantly).
 */
export class OperationRun<S extends string = string> {
  private readonly steps: StepRecord[];
  private readonly known: ReadonlySet<string>;

  constructor(
    private readonly repo: ProvisioningRepository,
    readonly operationId: string,
    list: StepList<S>,
    private readonly log: (message: string) => void = () => {},
  ) {
    this.steps = list.steps.map((name) => ({ name, status: 'pending' }));
    this.known = new Set([...list.steps, ...(list.optional ?? [])]);
  }

  async start(): Promise<void> {
    await this.repo.updateOperation(this.operationId, {
      status: 'running',
      startedAt: new Date(),
      steps: this.steps,
      progress: 0,
      error: null,
      finishedAt: null,
    });
  }

  /** Runs one step; transient failures are tried again with exponential backoff. */
  readonly step = async <T>(name: S, work: () => Promise<T>, retry: RetryPolicy = NO_RETRY): Promise<T> => {
    // The type system checks names where the run's kind is known; this catches the rest.
    if (!this.known.has(name)) throw new StepError(name, `${name} is not a step of this operation's kind (@basalt/db OPERATION_KINDS)`);
    const record = this.steps.find((s) => s.name === name) ?? this.addStep(name);
    record.status = 'running';
    record.started_at = new Date().toISOString();
    delete record.finished_at;
    await this.saveSteps();
    await this.event('step_started', name, `${name} started`);
    for (let attempt = 1; ; attempt++) {
      try {
        const result = await work();
        record.status = 'succeeded';
        record.finished_at = new Date().toISOString();
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

  private async saveSteps(): Promise<void> {
    const done = this.steps.filter((s) => s.status === 'succeeded').length;
    const progress = Math.floor((done / Math.max(this.steps.length, 1)) * 100);
    await this.repo.updateOperation(this.operationId, { steps: this.steps, progress: Math.min(progress, 99) });
  }
}
