// Benchmark runs of an instance: stored here, run by the worker's benchmark job.
import { Injectable } from '@nestjs/common';
import { BenchmarksRepository } from '@basalt/db';
import { randomUUID } from 'node:crypto';
import { Conflict, NotFound } from '../common/errors.js';
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
    return (await this.benchmarks.listForInstance(projectId, instance.id)).map(toBenchmarkDto);
  }

  async get(auth: AuthContext, projectId: string, instanceId: string, id: string): Promise<BenchmarkDto> {
    const instance = await this.instances.load(auth, projectId, instanceId);
    const row = await this.benchmarks.get(projectId, instance.id, id);
    if (!row) throw new NotFound('Benchmark');
    return toBenchmarkDto(row);
  }

  async create(auth: AuthContext, projectId: string, instanceId: string, body: CreateBenchmarkDto): Promise<BenchmarkAcceptedDto> {
    const instance = await this.instances.load(auth, projectId, instanceId, 'member');
    if (instance.status !== 'running') throw new Conflict(`Benchmarks need a running instance; it is ${instance.status}`, 'invalid_state');
    const benchmarkId = randomUUID();
    const { operation } = await this.starter.start({
      instance,
      type: 'benchmark',
      queue: 'benchmark',
      userId: auth.user.id,
      params: { benchmark_id: benchmarkId, workload: body.workload },
      job: { benchmark_id: benchmarkId },
      before: async (db) => {
        await new BenchmarksRepository(db).insert({
          id: benchmarkId,
          projectId,
          instanceId: instance.id,
          instanceType: instance.instanceType,
          tool: 'basalt-bench',
          workload: body.workload,
          parameters: body.parameters ?? {},
        });
      },
    });
    const row = await this.benchmarks.get(projectId, instance.id, benchmarkId);
    return { benchmark: toBenchmarkDto(row!), operation: toOperationDto(operation) };
  }
}
