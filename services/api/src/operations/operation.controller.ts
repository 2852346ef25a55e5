import { Controller, Get, Headers, Param, Query, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Auth } from '../common/decorators.js';
import type { AuthContext } from '../common/request-context.js';
import { ApiErrors } from '../common/api-errors.js';
import { IdParams, ProjectInstanceParams } from '../common/params.js';
import { OperationDto, OperationListDto, OperationListQuery } from './operation.dto.js';
import { OperationService } from './operation.service.js';

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

  @Get('operations/:id/events')
  @ApiOperation({
    operationId: 'streamOperationEvents',
    summary: 'Server-Sent Events: `progress` events (kind, step, message), then one `operation` event when it finishes. At most 10 live streams per user (429 too_many_streams)',
  })
  @ApiProduces('text/event-stream')
  @ApiOkResponse({ description: 'An event stream', content: { 'text/event-stream': { schema: { type: 'string' } } } })
  @ApiErrors(400, 401, 404, 429)
  async events(
    @Auth() auth: AuthContext,
    @Param() params: IdParams,
    @Req() req: Request,
    @Res() res: Response,
    @Headers('last-event-id') lastEventId?: string,
  ): Promise<void> {
    const after = lastEventId && /^\d{1,15}$/.test(lastEventId) ? Number(lastEventId) : 0;
    // Resolving the stream checks access first, so a 404 is still an ordinary JSON error.
    const stream = await this.service.stream(auth, params.id, after);
    res.status(200);
    res.setHeader('Content-Type', 'text/event-stream');
    res.setHeader('Cache-Control', 'no-cache');
    res.setHeader('Connection', 'keep-alive');
    res.setHeader('X-Accel-Buffering', 'no');
    res.flushHeaders();
    const subscription = stream.subscribe({
      next: (event) => res.write(`id: ${event.id}\nevent: ${event.type}\ndata: ${JSON.stringify(event.data)}\n\n`),
      complete: () => res.end(),
      error: () => res.end(),
    });
    req.on('close', () => subscription.unsubscribe());
  }

  @Get('projects/:project/instances/:instance/operations')
  @ApiOperation({ operationId: 'listInstanceOperations', summary: 'Newest first' })
  @ApiOkResponse({ type: OperationListDto })
  @ApiErrors(400, 401, 404)
  list(@Auth() auth: AuthContext, @Param() params: ProjectInstanceParams, @Query() query: OperationListQuery): Promise<OperationListDto> {
    return this.service.listForInstance(auth, params.project, params.instance, query.limit ?? 50, query.cursor);
  }
}
