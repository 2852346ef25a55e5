import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiAcceptedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth } from '../common/decorators.js';
import type { AuthContext } from '../common/request-context.js';
import { ApiErrors } from '../common/api-errors.js';
import { Idempotent } from '../common/idempotent.decorator.js';
import { InstanceBenchmarkParams, ProjectInstanceParams } from '../common/params.js';
import { BenchmarkAcceptedDto, BenchmarkDto, BenchmarkListDto, CreateBenchmarkDto } from './benchmark.dto.js';
import { BenchmarkService } from './benchmark.service.js';

@ApiTags('benchmarks')
@Controller('projects/:project/instances/:instance/benchmarks')
export class BenchmarkController {
  constructor(private readonly service: BenchmarkService) {}

  @Get()
  @ApiOperation({ operationId: 'listInstanceBenchmarks' })
  @ApiOkResponse({ type: BenchmarkListDto })
  @ApiErrors(400, 401, 404)
  async list(@Auth() auth: AuthContext, @Param() params: ProjectInstanceParams): Promise<BenchmarkListDto> {
    return { items: await this.service.list(auth, params.project, params.instance) };
  }

  @Post()
  @HttpCode(202)
  @Idempotent('member')
  @ApiOperation({ operationId: 'createInstanceBenchmark', summary: 'Queue a benchmark run on a running instance' })
  @ApiAcceptedResponse({ type: BenchmarkAcceptedDto })
  @ApiErrors(400, 401, 403, 404, 409, 429)
  create(@Auth() auth: AuthContext, @Param() params: ProjectInstanceParams, @Body() body: CreateBenchmarkDto): Promise<BenchmarkAcceptedDto> {
    return this.service.create(auth, params.project, params.instance, body);
  }

  @Post(':benchmark/cancel')
  @HttpCode(202)
  @ApiOperation({ operationId: 'cancelInstanceBenchmark', summary: 'Stop a pending or running benchmark (the client stops within seconds)' })
  @ApiAcceptedResponse({ type: BenchmarkDto })
  @ApiErrors(400, 401, 403, 404, 409)
  cancel(@Auth() auth: AuthContext, @Param() params: InstanceBenchmarkParams): Promise<BenchmarkDto> {
    return this.service.cancel(auth, params.project, params.instance, params.benchmark);
  }

  @Get(':benchmark')
  @ApiOperation({ operationId: 'getInstanceBenchmark' })
  @ApiOkResponse({ type: BenchmarkDto })
  @ApiErrors(400, 401, 404)
  get(@Auth() auth: AuthContext, @Param() params: InstanceBenchmarkParams): Promise<BenchmarkDto> {
    return this.service.get(auth, params.project, params.instance, params.benchmark);
  }
}
