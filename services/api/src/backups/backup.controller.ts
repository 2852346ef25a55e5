import { Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiAcceptedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth } from '../common/decorators.js';
import type { AuthContext } from '../common/request-context.js';
import { ApiErrors } from '../common/api-errors.js';
import { Idempotent } from '../common/idempotent.decorator.js';
import { ProjectBackupParams, ProjectInstanceParams } from '../common/params.js';
import { BackupAcceptedDto, BackupDto, BackupListDto, RestoreWindowDto } from './backup.dto.js';
import { BackupService } from './backup.service.js';

@ApiTags('backups')
@Controller('projects/:project')
export class BackupController {
  constructor(private readonly service: BackupService) {}

  @Post('instances/:instance/backups')
  @HttpCode(202)
  @Idempotent('member')
  @ApiOperation({ operationId: 'createInstanceBackup', summary: 'Take a manual backup now (kept until deleted); 409 unless the instance is running or in error' })
  @ApiAcceptedResponse({ type: BackupAcceptedDto })
  @ApiErrors(400, 401, 403, 404, 409, 429)
  create(@Auth() auth: AuthContext, @Param() params: ProjectInstanceParams): Promise<BackupAcceptedDto> {
    return this.service.create(auth, params.project, params.instance);
  }

  @Get('instances/:instance/backups')
  @ApiOperation({ operationId: 'listInstanceBackups', summary: "The instance's backups, newest first (a deleted instance's too)" })
  @ApiOkResponse({ type: BackupListDto })
  @ApiErrors(400, 401, 404)
  async list(@Auth() auth: AuthContext, @Param() params: ProjectInstanceParams): Promise<BackupListDto> {
    return { items: await this.service.list(auth, params.project, params.instance) };
  }

  @Get('instances/:instance/restore-window')
  @ApiOperation({ operationId: 'getInstanceRestoreWindow', summary: 'The points in time the instance can be restored to, and how far its archive lags' })
  @ApiOkResponse({ type: RestoreWindowDto })
  @ApiErrors(400, 401, 404)
  restoreWindow(@Auth() auth: AuthContext, @Param() params: ProjectInstanceParams): Promise<RestoreWindowDto> {
    return this.service.restoreWindow(auth, params.project, params.instance);
  }

  @Get('backups/:backup')
  @ApiOperation({ operationId: 'getBackup' })
  @ApiOkResponse({ type: BackupDto })
  @ApiErrors(400, 401, 404)
  get(@Auth() auth: AuthContext, @Param() params: ProjectBackupParams): Promise<BackupDto> {
    return this.service.get(auth, params.project, params.backup);
  }

  @Delete('backups/:backup')
  @HttpCode(202)
  @ApiOperation({ operationId: 'deleteBackup', summary: 'Remove a finished backup (status deleting until its objects are gone); 409 while pending or running' })
  @ApiAcceptedResponse({ type: BackupDto })
  @ApiErrors(400, 401, 403, 404, 409)
  delete(@Auth() auth: AuthContext, @Param() params: ProjectBackupParams): Promise<BackupDto> {
    return this.service.delete(auth, params.project, params.backup);
  }
}
