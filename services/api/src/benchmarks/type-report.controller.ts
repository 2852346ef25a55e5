import { Body, Controller, Get, HttpCode, Param, Post, Res } from '@nestjs/common';
import type { Response } from 'express';
import { ApiAcceptedResponse, ApiOkResponse, ApiOperation, ApiProduces, ApiProperty, ApiTags } from '@nestjs/swagger';
import { IsUUID } from 'class-validator';
import { Auth } from '../common/decorators.js';
import type { AuthContext } from '../common/request-context.js';
import { ApiErrors } from '../common/api-errors.js';
import { Idempotent } from '../common/idempotent.decorator.js';
import { InstanceTypeParams } from '../common/params.js';
import { CreateTypeReportDto, InstanceTypeReportAcceptedDto, InstanceTypeReportListDto, InstanceTypeReportOneDto } from './type-report.dto.js';
import { TypeReportService } from './type-report.service.js';

export class TypeReportParams extends InstanceTypeParams {
  @ApiProperty({ format: 'uuid' })
  @IsUUID()
  report: string;
}

const MARKDOWN = 'text/markdown; charset=utf-8';

/** The white paper as text/markdown; set only once it is found, so an error stays JSON. */
async function asMarkdown(res: Response, markdown: Promise<string>): Promise<string> {
  const text = await markdown;
  res.type(MARKDOWN);
  return text;
}

// The `latest` routes come before `:report`, which takes only a UUID.
@ApiTags('benchmark reports')
@Controller('instance-types/:id/benchmarks')
export class TypeReportController {
  constructor(private readonly service: TypeReportService) {}

  @Post()
  @HttpCode(202)
  @Idempotent('admin')
  @ApiOperation({
    operationId: 'createInstanceTypeReport',
    summary: "Measure the type (administrators): a temporary instance of it in the platform's project runs the standard suites beside their peers; the report is stored and the instance deleted",
  })
  @ApiAcceptedResponse({ type: InstanceTypeReportAcceptedDto })
  @ApiErrors(400, 401, 403, 404, 409, 429)
  create(@Auth() auth: AuthContext, @Param() params: InstanceTypeParams, @Body() body: CreateTypeReportDto): Promise<InstanceTypeReportAcceptedDto> {
    return this.service.create(auth, params.id, body);
  }

  @Get()
  @ApiOperation({ operationId: 'listInstanceTypeReports', summary: "The type's benchmark reports, newest first (runs without the tool's JSON reports)" })
  @ApiOkResponse({ type: InstanceTypeReportListDto })
  @ApiErrors(400, 401, 404)
  async list(@Param() params: InstanceTypeParams): Promise<InstanceTypeReportListDto> {
    return { items: await this.service.list(params.id) };
  }

  @Get('latest')
  @ApiOperation({ operationId: 'getLatestInstanceTypeReport', summary: "The type's newest succeeded report (404 no_report when it has none)" })
  @ApiOkResponse({ type: InstanceTypeReportOneDto })
  @ApiErrors(400, 401, 404)
  async latest(@Param() params: InstanceTypeParams): Promise<InstanceTypeReportOneDto> {
    return { report: await this.service.latest(params.id) };
  }

  @Get('latest/report.md')
  @ApiOperation({ operationId: 'getLatestInstanceTypeReportMarkdown', summary: 'The newest succeeded report as a white paper (markdown)' })
  @ApiProduces('text/markdown')
  @ApiOkResponse({ schema: { type: 'string' } })
  @ApiErrors(400, 401, 404)
  latestMarkdown(@Param() params: InstanceTypeParams, @Res({ passthrough: true }) res: Response): Promise<string> {
    return asMarkdown(res, this.service.latestMarkdown(params.id));
  }

  @Get(':report')
  @ApiOperation({ operationId: 'getInstanceTypeReport', summary: 'One report, whatever its status (its progress while it runs)' })
  @ApiOkResponse({ type: InstanceTypeReportOneDto })
  @ApiErrors(400, 401, 404)
  async get(@Param() params: TypeReportParams): Promise<InstanceTypeReportOneDto> {
    return { report: await this.service.get(params.id, params.report) };
  }

  @Get(':report/report.json')
  @ApiOperation({
    operationId: 'getInstanceTypeReportDocument',
    summary: "One report as its JSON document (what it publishes; docs/benchmarks/<type>.json is one): its markdown, headline and charts are computed from it. 409 when it has none (not succeeded, or made before reports kept one)",
  })
  @ApiOkResponse({ schema: { type: 'object', additionalProperties: true } })
  @ApiErrors(400, 401, 404, 409)
  document(@Param() params: TypeReportParams): Promise<Record<string, unknown>> {
    return this.service.document(params.id, params.report);
  }

  @Get(':report/report.md')
  @ApiOperation({ operationId: 'getInstanceTypeReportMarkdown', summary: 'One succeeded report as a white paper (markdown); 409 before it succeeded' })
  @ApiProduces('text/markdown')
  @ApiOkResponse({ schema: { type: 'string' } })
  @ApiErrors(400, 401, 404, 409)
  markdown(@Param() params: TypeReportParams, @Res({ passthrough: true }) res: Response): Promise<string> {
    return asMarkdown(res, this.service.markdown(params.id, params.report));
  }
}
