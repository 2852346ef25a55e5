// Benchmark runs of an instance: queued here, run by the worker's benchmark job (which alone
// writes their progress and scenarios), cancelled here by a request the job acts on.
import { Injectable } from '@nestjs/common';
import { BenchmarksRepository } from '@basalt/db';
import { BENCHMARK_RUNS_PER_PROJECT_MAX, parseCustomFlags } from '@basalt/api-client/rules';
import { randomUUID } from 'node:crypto';
import { Conflict, DomainError, Invalid, NotFound } from '../common/errors.js';
import type { AuthContext } from '../common/request-context.js';
import { InstanceService } from '../instances/instance.service.js';
import { OperationStarter } from '../operations/operation-starter.service.js';
import { toOperationDto } from '../operations/operation.dto.js';
import { type BenchmarkAcceptedDto, type BenchmarkDto, type CreateBenchmarkDto, toBenchmarkDto } from './benchmark.dto.js';

@Injectable()
export class BenchmarkService {
  constructor(
    private readonly instances: InstanceService,
    private readonly benchmarks: BenchmarksRepository,
    private readonly starter: OperationStarter,
  ) {}

  async list(auth: AuthContext, projectId: string, instanceId: string): Promise<BenchmarkDto[]> {
    const instance = await this.instances.load(auth, projectId, instanceId);
    const rows = await this.benchmarks.listForInstance(projectId, instance.id);
    const scenarios = await this.benchmarks.listScenarioSummaries(rows.map((r) => r.id));
    return rows.map((row) => toBenchmarkDto(row, scenarios));
  }

  async get(auth: AuthContext, projectId: string, instanceId: string, id: string): Promise<BenchmarkDto> {
    const instance = await this.instances.load(auth, projectId, instanceId);
    const row = await this.benchmarks.get(projectId, instance.id, id);
    if (!row) throw new NotFound('Benchmark');
    return toBenchmarkDto(row, await this.benchmarks.listScenarios([row.id]));
  }

  async create(auth: AuthContext, projectId: string, instanceId: string, body: CreateBenchmarkDto): Promise<BenchmarkAcceptedDto> {
    const parameters = parametersOf(body);
    const instance = await this.instances.load(auth, projectId, instanceId, 'member');
    if (instance.status !== 'running') throw new Conflict(`Benchmarks need a running instance; it is ${instance.status}`, 'invalid_state');
    const benchmarkId = randomUUID();
    const { operation } = await this.starter.start({
      instance,
      type: 'benchmark',
      userId: auth.user.id,
      params: { benchmark_id: benchmarkId, workload: body.workload },
      job: { benchmark_id: benchmarkId },
      before: async (db) => {
        const repository = new BenchmarksRepository(db);
        // Each run's client takes the worker's CPU and memory on a host that the project shares.
        const unfinished = await repository.countUnfinishedLocked(projectId);
        if (unfinished >= BENCHMARK_RUNS_PER_PROJECT_MAX) throw new TooManyBenchmarks(unfinished);
        await repository.insert({
          id: benchmarkId,
          projectId,
          instanceId: instance.id,
          instanceType: instance.instanceType,
          tool: 'basalt-bench',
          workload: body.workload,
          parameters,
        });
      },
      after: (db, started) => new BenchmarksRepository(db).linkOperation(benchmarkId, started.id),
    });
    const row = await this.benchmarks.get(projectId, instance.id, benchmarkId);
    return { benchmark: toBenchmarkDto(row!), operation: toOperationDto(operation) };
  }

  /** Asks the worker's job to stop the run; it stops the client within seconds and marks the run cancelled. */
  async cancel(auth: AuthContext, projectId: string, instanceId: string, id: string): Promise<BenchmarkDto> {
    const instance = await this.instances.load(auth, projectId, instanceId, 'member');
    const row = await this.benchmarks.get(projectId, instance.id, id);
    if (!row) throw new NotFound('Benchmark');
    const asked = await this.benchmarks.requestCancel(projectId, instance.id, id);
    if (!asked) {
      if (row.cancelRequestedAt && (row.status === 'pending' || row.status === 'running')) return toBenchmarkDto(row);
      throw new Conflict(`The benchmark has already finished (${row.status})`, 'invalid_state');
    }
    return toBenchmarkDto(asked, await this.benchmarks.listScenarioSummaries([id]));
  }
}

/** The project has its most runs pending or running: wait for one to finish, or cancel one. */
export class TooManyBenchmarks extends DomainError {
  constructor(unfinished: number) {
    super(
      429,
      'benchmark_limit',
      `The project already has ${unfinished} benchmark runs pending or running; at most ${BENCHMARK_RUNS_PER_PROJECT_MAX} at once (wait for one to finish or cancel one)`,
      { limit: BENCHMARK_RUNS_PER_PROJECT_MAX, unfinished },
    );
  }
}

/** What a run keeps of its request: a custom run's flags in canonical form; nothing for a suite. */
function parametersOf(body: CreateBenchmarkDto): Record<string, unknown> {
  if (body.workload !== 'custom') {
    if (body.flags !== undefined) throw new Invalid('flags are only for a custom run', { field: 'flags' });
    return {};
  }
  if (!body.flags?.length) throw new Invalid('a custom run needs flags', { field: 'flags' });
  const parsed = parseCustomFlags(body.flags);
  if (!parsed.ok) throw new Invalid(`flags: ${parsed.error}`, { field: 'flags' });
  return { flags: parsed.args };
}
