import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth } from '../common/decorators.js';
import type { AuthContext } from '../common/request-context.js';
import { ApiErrors } from '../common/api-errors.js';
import { ProjectInstanceParams } from '../common/params.js';
import { InstanceMetricsDto, InstanceMetricsQuery, InstanceSlowlogDto, InstanceSlowlogQuery } from './instance-metrics.dto.js';
import { InstanceMetricsService } from './instance-metrics.service.js';
import { InstanceSlowlogService } from './instance-slowlog.service.js';

@ApiTags('monitoring')
@Controller('projects/:project/instances/:instance')
export class InstanceMetricsController {
  constructor(
    private readonly metrics: InstanceMetricsService,
    private readonly slowlog: InstanceSlowlogService,
  ) {}

  @Get('metrics')
  @ApiOperation({ operationId: 'getInstanceMetrics', summary: 'The console charts: ops/s by class, p50/p99 latency, memory, connections, hit ratio, disk, replication lag' })
  @ApiOkResponse({ type: InstanceMetricsDto })
  @ApiErrors(400, 401, 404, 503)
  get(@Auth() auth: AuthContext, @Param() params: ProjectInstanceParams, @Query() query: InstanceMetricsQuery): Promise<InstanceMetricsDto> {
    return this.metrics.get(auth, params.project, params.instance, query.range, query.series);
  }

  @Get('slowlog')
  @ApiOperation({ operationId: 'getInstanceSlowlog', summary: "The engine's slow log (SLOWLOG GET) of every node, newest first" })
  @ApiOkResponse({ type: InstanceSlowlogDto })
  @ApiErrors(400, 401, 404, 409, 503)
  slow(@Auth() auth: AuthContext, @Param() params: ProjectInstanceParams, @Query() query: InstanceSlowlogQuery): Promise<InstanceSlowlogDto> {
    return this.slowlog.get(auth, params.project, params.instance, query.count);
  }
}
