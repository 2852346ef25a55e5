import { Controller, Get, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ApiAcceptedResponse, ApiBody, ApiConsumes, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { pipeline } from 'node:stream/promises';
import { Auth } from '../common/decorators.js';
import type { AuthContext } from '../common/request-context.js';
import { ApiErrors } from '../common/api-errors.js';
import { Idempotent } from '../common/idempotent.decorator.js';
import { ProjectBackupParams, ProjectExportParams, ProjectParams } from '../common/params.js';
import { RdbExportAcceptedDto, RdbExportDto, RdbImportDto, RdbImportLimitsDto } from './rdb-file.dto.js';
import { type RdbDownload, RdbExportService } from './rdb-export.service.js';
import { RdbImportService } from './rdb-import.service.js';

/**
 * Streams the plain RDB as an attachment; headers go only once the file opened, so a refusal
 * stays a JSON error. A frame that fails to open midway ends the response short (the
 * Content-Length then says the file is incomplete).
 */
async function sendRdb(res: Response, download: Promise<RdbDownload>): Promise<void> {
  const file = await download;
  // The instance's name is the person's text: only filename-safe characters reach the header.
  const name = file.fileName.replace(/[^A-Za-z0-9._-]/g, '_');
  res.status(200).set({ 'Content-Type': 'application/octet-stream', 'Content-Length': String(file.sizeBytes), 'Content-Disposition': `attachment; filename="${name}"` });
  await pipeline(file.body, res).catch(() => res.destroy());
}

@ApiTags('backups')
@Controller('projects/:project')
export class RdbFileController {
  constructor(
    private readonly exports: RdbExportService,
    private readonly imports: RdbImportService,
  ) {}

  @Post('backups/:backup/exports')
  @HttpCode(202)
  @Idempotent('member')
  @ApiOperation({ operationId: 'createBackupExport', summary: 'Make an RDB file of a succeeded backup (downloadable for 24 hours); 409 unless the backup has succeeded' })
  @ApiAcceptedResponse({ type: RdbExportAcceptedDto })
  @ApiErrors(400, 401, 403, 404, 409, 429)
  create(@Auth() auth: AuthContext, @Param() params: ProjectBackupParams): Promise<RdbExportAcceptedDto> {
    return this.exports.create(auth, params.project, params.backup);
  }

  @Get('exports/:export')
  @ApiOperation({ operationId: 'getExport' })
  @ApiOkResponse({ type: RdbExportDto })
  @ApiErrors(400, 401, 404)
  get(@Auth() auth: AuthContext, @Param() params: ProjectExportParams): Promise<RdbExportDto> {
    return this.exports.get(auth, params.project, params.export);
  }

  @Get('exports/:export/download')
  @ApiOperation({ operationId: 'downloadExport', summary: 'The RDB file (RDB 10, loads in Redis 7); 409 until the export has succeeded, 410 once it has expired' })
  @ApiProduces('application/octet-stream')
  @ApiOkResponse({ schema: { type: 'string', format: 'binary' } })
  @ApiErrors(400, 401, 403, 404, 409, 410)
  download(@Auth() auth: AuthContext, @Param() params: ProjectExportParams, @Res() res: Response): Promise<void> {
    return sendRdb(res, this.exports.download(auth, params.project, params.export));
  }

  @Get('rdb-imports/limits')
  @ApiOperation({ operationId: 'getRdbImportLimits', summary: 'How large an RDB upload may be and how long it is kept' })
  @ApiOkResponse({ type: RdbImportLimitsDto })
  @ApiErrors(400, 401, 404)
  limits(@Auth() auth: AuthContext, @Param() params: ProjectParams): Promise<RdbImportLimitsDto> {
    return this.imports.limits(auth, params.project);
  }

  @Post('rdb-imports')
  @ApiOperation({
    operationId: 'createRdbImport',
    summary: 'Upload an RDB file (a Redis dump.rdb) as the raw body, to create an instance from with restore_from.rdb_import_id within 24 hours; 413 beyond BASALT_RDB_IMPORT_MAX_BYTES (default 1 GiB)',
  })
  @ApiConsumes('application/octet-stream')
  @ApiBody({ schema: { type: 'string', format: 'binary' } })
  @ApiCreatedResponse({ type: RdbImportDto })
  @ApiErrors(400, 401, 403, 404, 413, 415, 429)
  upload(@Auth() auth: AuthContext, @Param() params: ProjectParams, @Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<RdbImportDto> {
    const closeAfterReply = () => res.setHeader('Connection', 'close');
    return this.imports.upload(auth, params.project, { body: req, contentType: req.headers['content-type'], contentLength: req.headers['content-length'], closeAfterReply });
  }
}
