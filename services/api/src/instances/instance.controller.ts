import { Body, Controller, Delete, Get, Header, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiAcceptedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth } from '../common/decorators.js';
import type { AuthContext } from '../common/request-context.js';
import { ApiErrors } from '../common/api-errors.js';
import { Idempotent } from '../common/idempotent.decorator.js';
import { ProjectInstanceParams, ProjectParams } from '../common/params.js';
import {
  CreatedInstanceDto,
  CreateInstanceDto,
  InstanceAcceptedDto,
  InstanceDetailDto,
  InstanceListDto,
  InstanceListQuery,
  UpdateInstanceDto,
} from './instance.dto.js';
import { InstanceService } from './instance.service.js';

@ApiTags('instances')
@Controller('projects/:project/instances')
export class InstanceController {
  constructor(private readonly service: InstanceService) {}

  @Post()
  @HttpCode(202)
  @Idempotent('member')
  @ApiOperation({ operationId: 'createInstance', summary: 'Create an instance; returns the default password once' })
  @ApiAcceptedResponse({ type: CreatedInstanceDto })
  @ApiErrors(400, 401, 403, 404, 409, 429)
  create(@Auth() auth: AuthContext, @Param() params: ProjectParams, @Body() body: CreateInstanceDto): Promise<CreatedInstanceDto> {
    return this.service.create(auth, params.project, body);
  }

  @Get()
  @ApiOperation({ operationId: 'listInstances', summary: 'List with filters, sorting and cursor pagination' })
  @ApiOkResponse({ type: InstanceListDto })
  @ApiErrors(400, 401, 404)
  // The service returns the InstanceListDto already serialised (PostgreSQL built the items).
  @Header('Content-Type', 'application/json; charset=utf-8')
  list(@Auth() auth: AuthContext, @Param() params: ProjectParams, @Query() query: InstanceListQuery): Promise<string> {
    return this.service.list(auth, params.project, query);
  }

  @Get(':instance')
  @ApiOperation({ operationId: 'getInstance' })
  @ApiOkResponse({ type: InstanceDetailDto })
  @ApiErrors(400, 401, 404)
  get(@Auth() auth: AuthContext, @Param() params: ProjectInstanceParams): Promise<InstanceDetailDto> {
    return this.service.get(auth, params.project, params.instance);
  }

  @Patch(':instance')
  @HttpCode(202)
  @ApiOperation({ operationId: 'updateInstance', summary: 'Rename, resize, tags, deletion protection, parameters' })
  @ApiAcceptedResponse({ type: InstanceAcceptedDto })
  @ApiErrors(400, 401, 403, 404, 409)
  update(@Auth() auth: AuthContext, @Param() params: ProjectInstanceParams, @Body() body: UpdateInstanceDto): Promise<InstanceAcceptedDto> {
    return this.service.update(auth, params.project, params.instance, body);
  }

  @Post(':instance/restart')
  @HttpCode(202)
  @Idempotent('member')
  @ApiOperation({ operationId: 'restartInstance' })
  @ApiAcceptedResponse({ type: InstanceAcceptedDto })
  @ApiErrors(400, 401, 403, 404, 409, 429)
  restart(@Auth() auth: AuthContext, @Param() params: ProjectInstanceParams): Promise<InstanceAcceptedDto> {
    return this.service.restart(auth, params.project, params.instance);
  }

  @Post(':instance/failover')
  @HttpCode(202)
  @Idempotent('member')
  @ApiOperation({
    operationId: 'failoverInstance',
    summary: 'Switch a standard instance over to its most up-to-date replica, losing no acknowledged write (409 for standalone)',
  })
  @ApiAcceptedResponse({ type: InstanceAcceptedDto })
  @ApiErrors(400, 401, 403, 404, 409, 429)
  failover(@Auth() auth: AuthContext, @Param() params: ProjectInstanceParams): Promise<InstanceAcceptedDto> {
    return this.service.failover(auth, params.project, params.instance);
  }

  @Delete(':instance')
  @HttpCode(202)
  @ApiOperation({ operationId: 'deleteInstance', summary: '409 while deletion protection is on' })
  @ApiAcceptedResponse({ type: InstanceAcceptedDto })
  @ApiErrors(400, 401, 403, 404, 409)
  delete(@Auth() auth: AuthContext, @Param() params: ProjectInstanceParams): Promise<InstanceAcceptedDto> {
    return this.service.delete(auth, params.project, params.instance);
  }
}
