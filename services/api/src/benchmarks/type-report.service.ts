// Per-type benchmark reports: asked for here by an administrator (a temporary instance of the
// type in the platform's own project, the report row, the benchmark_report operation and its
// job, in one transaction), made by the worker's benchmark_report job (which alone writes
// their progress, runs and markdown), read here by any signed-in caller.
import { Injectable } from '@nestjs/common';
import {
  BenchmarksRepository,
  CatalogRepository,
  encryptSecret,
  generatePassword,
  InstancesRepository,
  InstanceUsersRepository,
  type TypeReportRow,
  TypeReportsRepository,
} from '@basalt/db';
import { STANDARD_SUITES } from '@basalt/api-client/rules';
import { randomUUID } from 'node:crypto';
import { ApiConfig } from '../config.js';
import { Conflict, DomainError, Forbidden, Invalid, isUniqueViolation, NotFound } from '../common/errors.js';
import type { AuthContext } from '../common/request-context.js';
import { toOperationDto } from '../operations/operation.dto.js';
import { OperationStarter } from '../operations/operation-starter.service.js';
import { type BenchmarkDto, toBenchmarkDto } from './benchmark.dto.js';
import { type CreateTypeReportDto, type InstanceTypeReportAcceptedDto, type InstanceTypeReportDto, toTypeReportDto } from './type-report.dto.js';

/** The user the benchmark job runs the load as (it takes `default` when that user may write). */
const REPORT_USERNAME = 'default';

class NoReport extends DomainError {
  constructor(instanceType: string) {
    super(404, 'no_report', `${instanceType} has no succeeded benchmark report yet`);
  }
}

@Injectable()
export class TypeReportService {
  constructor(
    private readonly config: ApiConfig,
    private readonly catalog: CatalogRepository,
    private readonly reports: TypeReportsRepository,
    private readonly benchmarks: BenchmarksRepository,
    private readonly starter: OperationStarter,
  ) {}

  async create(auth: AuthContext, instanceType: string, body: CreateTypeReportDto): Promise<InstanceTypeReportAcceptedDto> {
    if (!auth.user.isAdmin) throw new Forbidden('Only administrators make benchmark reports');
    const type = await this.catalog.getInstanceType(instanceType);
    if (!type) throw new NotFound('Instance type');
    const regions = await Promise.all(type.regions.map((id) => this.catalog.getRegion(id)));
    const region = regions.find((r) => r?.available);
    if (!region) throw new Invalid(`${type.id} is offered in no available region`);
    const asked = body.suites ?? STANDARD_SUITES;
    const suites = STANDARD_SUITES.filter((suite) => asked.includes(suite));
    const reportId = randomUUID();
    try {
      let report: TypeReportRow | undefined;
      const { operation } = await this.starter.start({
        type: 'benchmark_report',
        userId: auth.user.id,
        params: { report_id: reportId, suites },
        job: { report_id: reportId },
        instance: async (db) => {
          const instance = await new InstancesRepository(db).insert({
            projectId: await new TypeReportsRepository(db).reportsProject(),
            name: `report-${reportId.slice(0, 8)}`,
            instanceType: type.id,
            region: region.id,
            engineVersion: '1.0',
            diskGib: type.diskGibMin,
            status: 'creating',
            tags: { benchmark_report: reportId },
          });
          // The user the suites run as; its password is generated and never shown to anyone.
          await new InstanceUsersRepository(db).insert({
            instanceId: instance.id,
            username: REPORT_USERNAME,
            permission: 'admin',
            passwordEncrypted: encryptSecret(this.config.masterKey, generatePassword()),
          });
          return instance;
        },
        after: async (db, started, instance) => {
          report = await new TypeReportsRepository(db).insert({ id: reportId, instanceType: type.id, suites, instanceId: instance.id, operationId: started.id, createdBy: auth.user.id });
        },
      });
      return { report: toTypeReportDto(report!, 'creating', []), operation: toOperationDto(operation) };
    } catch (error) {
      if (isUniqueViolation(error)) throw new Conflict(`A benchmark report of ${type.id} is already pending or running`, 'report_in_progress');
      throw error;
    }
  }

  async list(instanceType: string): Promise<InstanceTypeReportDto[]> {
    await this.requireType(instanceType);
    const rows = await this.reports.listForType(instanceType);
    return Promise.all(rows.map((row) => this.present(row, false)));
  }

  async latest(instanceType: string): Promise<InstanceTypeReportDto> {
    return this.present(await this.latestRow(instanceType), true);
  }

  async get(instanceType: string, id: string): Promise<InstanceTypeReportDto> {
    return this.present(await this.row(instanceType, id), true);
  }

  async latestMarkdown(instanceType: string): Promise<string> {
    return markdownOf(await this.latestRow(instanceType));
  }

  async markdown(instanceType: string, id: string): Promise<string> {
    return markdownOf(await this.row(instanceType, id));
  }

  async document(instanceType: string, id: string): Promise<Record<string, unknown>> {
    const row = await this.row(instanceType, id);
    if (row.status !== 'succeeded' || !row.document) throw new Conflict(`The report is ${row.status} and has no document${row.status === 'succeeded' ? ' (made before reports kept one)' : ' until it succeeded'}`, 'invalid_state');
    return row.document as unknown as Record<string, unknown>;
  }

  private async requireType(instanceType: string): Promise<void> {
    if (!(await this.catalog.getInstanceType(instanceType))) throw new NotFound('Instance type');
  }

  private async latestRow(instanceType: string): Promise<TypeReportRow> {
    await this.requireType(instanceType);
    const row = await this.reports.latestSucceeded(instanceType);
    if (!row) throw new NoReport(instanceType);
    return row;
  }

  private async row(instanceType: string, id: string): Promise<TypeReportRow> {
    await this.requireType(instanceType);
    const row = await this.reports.get(instanceType, id);
    if (!row) throw new NotFound('Benchmark report');
    return row;
  }

  /** The report with its runs: the newest run of each suite on its temporary instance. */
  private async present(row: TypeReportRow, withReports: boolean): Promise<InstanceTypeReportDto> {
    const statuses = row.instanceId ? await this.reports.instanceStatuses([row.instanceId]) : new Map();
    const status = row.instanceId ? statuses.get(row.instanceId) : undefined;
    let runs: BenchmarkDto[] = [];
    const projectId = row.instanceId ? await this.reports.reportsProjectId() : undefined;
    if (row.instanceId && projectId) {
      const all = await this.benchmarks.listForInstance(projectId, row.instanceId);
      const newest = row.suites.flatMap((suite) => all.filter((b) => b.workload === suite).slice(0, 1));
      const ids = newest.map((b) => b.id);
      const scenarios = withReports ? await this.benchmarks.listScenarios(ids) : await this.benchmarks.listScenarioSummaries(ids);
      runs = newest.map((b) => toBenchmarkDto(b, scenarios));
    }
    return toTypeReportDto(row, status, runs);
  }
}

function markdownOf(row: TypeReportRow): string {
  if (!row.markdown) throw new Conflict(`The report is ${row.status}; it has no markdown until it succeeded`, 'invalid_state');
  return row.markdown;
}
