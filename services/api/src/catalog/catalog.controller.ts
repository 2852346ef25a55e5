import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CatalogRepository, type InstanceTypeRow, TypeReportsRepository } from '@basalt/db';
import { ApiErrors } from '../common/api-errors.js';
import { NotFound } from '../common/errors.js';
import { InstanceTypeParams } from '../common/params.js';
import { InstanceTypeDto, InstanceTypeListDto, InstanceTypeQuery, RegionListDto, toInstanceTypeDto, toRegionDto } from './catalog.dto.js';

@ApiTags('catalog')
@Controller()
export class CatalogController {
  constructor(
    private readonly catalog: CatalogRepository,
    private readonly reports: TypeReportsRepository,
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
    return { items: await this.withReferences(await this.catalog.listInstanceTypes(query.region)) };
  }

  @Get('instance-types/:id')
  @ApiOperation({ operationId: 'getInstanceType' })
  @ApiOkResponse({ type: InstanceTypeDto })
  @ApiErrors(400, 401, 404)
  async instanceType(@Param() params: InstanceTypeParams): Promise<InstanceTypeDto> {
    const row = await this.catalog.getInstanceType(params.id);
    if (!row) throw new NotFound('Instance type');
    return (await this.withReferences([row]))[0]!;
  }

  /** Each type with the figures of its latest succeeded report (Basalt's own; null without one). */
  private async withReferences(rows: InstanceTypeRow[]): Promise<InstanceTypeDto[]> {
    const latest = await this.reports.latestSucceededOf(rows.map((row) => row.id));
    return rows.map((row) => toInstanceTypeDto(row, latest.get(row.id)));
  }
}
