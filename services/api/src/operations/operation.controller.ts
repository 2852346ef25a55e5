import { Controller, Get, Headers, Param, Query, Sse } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Observable } from 'rxjs';
import { Auth } from '../common/decorators.js';
import type { AuthContext } from '../common/request-context.js';
import { ApiErrors } from '../common/api-errors.js';
import { IdParams, ProjectInstanceParams } from '../common/params.js';
import { OperationDto, OperationListDto, OperationListQuery } from './operation.dto.js';
import { OperationService, type OperationStreamEvent } from './operation.service.js';

@ApiTags('operations')
@Controller()
export class OperationController {
  constructor(private readonly service: OperationService) {}

  @Get('operations/:id')
  @ApiOperation({ operationId: 'getOperation' })
  @ApiOkResponse({ type: OperationDto })
  @ApiErrors(400, 401, 404)
  get(@Auth() auth: AuthContext, @Param() params: IdParams): Promise<OperationDto> {
    return this.service.get(auth, params.id);
  }

  @Sse('operations/:id/events')
  @ApiOperation({
    operationId: 'streamOperationEvents',
    summary: 'Server-Sent Events: `progress` events (kind, step, message), then one `operation` event when it finishes',
  })
  @ApiProduces('text/event-stream')
  @ApiOkResponse({ description: 'An event stream', schema: { type: 'string' } })
  @ApiErrors(400, 401, 404)
  events(@Auth() auth: AuthContext, @Param() params: IdParams, @Headers('last-event-id') lastEventId?: string): Promise<Observable<OperationStreamEvent>> {
    const after = lastEventId && /^\d{1,15}$/.test(lastEventId) ? Number(lastEventId) : 0;
    return this.service.stream(auth, params.id, after);
  }

  @Get('projects/:project/instances/:instance/operations')
  @ApiOperation({ operationId: 'listInstanceOperations', summary: 'Newest first' })
  @ApiOkResponse({ type: OperationListDto })
  @ApiErrors(400, 401, 404)
  list(@Auth() auth: AuthContext, @Param() params: ProjectInstanceParams, @Query() query: OperationListQuery): Promise<OperationListDto> {
    return this.service.listForInstance(auth, params.project, params.instance, query.limit ?? 50, query.cursor);
  }
}
