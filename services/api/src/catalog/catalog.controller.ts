import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { BenchmarksRepository, CatalogRepository } from '@basalt/db';
import { ApiErrors } from '../common/api-errors.js';
import { NotFound } from '../common/errors.js';
import { InstanceTypeParams } from '../common/params.js';
import { BenchmarkListDto, toBenchmarkDto } from '../benchmarks/benchmark.dto.js';
import { InstanceTypeDto, InstanceTypeListDto, InstanceTypeQuery, RegionListDto, toInstanceTypeDto, toRegionDto } from './catalog.dto.js';

@ApiTags('catalog')
@Controller()
export class CatalogController {
  constructor(
    private readonly catalog: CatalogRepository,
    private readonly benchmarks: BenchmarksRepository,
  ) {}

  @Get('regions')
  @ApiOperation({ operationId: 'listRegions' })
  @ApiOkResponse({ type: RegionListDto })
  @ApiErrors(401)
  async regions(): Promise<RegionListDto> {
    return { items: (await this.catalog.listRegions()).map(toRegionDto) };
  }

  @Get('instance-types')
  @ApiOperation({ operationId: 'listInstanceTypes' })
  @ApiOkResponse({ type: InstanceTypeListDto })
  @ApiErrors(400, 401)
  async instanceTypes(@Query() query: InstanceTypeQuery): Promise<InstanceTypeListDto> {
    return { items: (await this.catalog.listInstanceTypes(query.region)).map(toInstanceTypeDto) };
  }

  @Get('instance-types/:id')
  @ApiOperation({ operationId: 'getInstanceType' })
  @ApiOkResponse({ type: InstanceTypeDto })
  @ApiErrors(400, 401, 404)
  async instanceType(@Param() params: InstanceTypeParams): Promise<InstanceTypeDto> {
    const row = await this.catalog.getInstanceType(params.id);
    if (!row) throw new NotFound('Instance type');
    return toInstanceTypeDto(row);
  }

  @Get('instance-types/:id/benchmarks')
  @ApiOperation({ operationId: 'listInstanceTypeBenchmarks', summary: 'Reference benchmark runs of an instance type' })
  @ApiOkResponse({ type: BenchmarkListDto })
  @ApiErrors(400, 401, 404)
  async instanceTypeBenchmarks(@Param() params: InstanceTypeParams): Promise<BenchmarkListDto> {
    if (!(await this.catalog.getInstanceType(params.id))) throw new NotFound('Instance type');
    const rows = await this.benchmarks.listReference(params.id);
    const scenarios = await this.benchmarks.listScenarioSummaries(rows.map((r) => r.id));
    return { items: rows.map((row) => toBenchmarkDto(row, scenarios)) };
  }
}
