import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { AuditRepository, type AuditRow } from '@basalt/db';
import { Auth } from '../common/decorators.js';
import type { AuthContext } from '../common/request-context.js';
import { ApiErrors } from '../common/api-errors.js';
import { ProjectParams } from '../common/params.js';
import { ProjectAccess } from '../projects/project-access.service.js';

export class AuditEntryDto {
  @ApiProperty() id: number;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) user_id: string | null;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) api_key_id: string | null;
  @ApiProperty({ example: 'POST /v1/projects/:project/instances' }) action: string;
  @ApiProperty() method: string;
  @ApiProperty() path: string;
  @ApiProperty() status_code: number;
  @ApiProperty() request_id: string;
  @ApiProperty({ nullable: true, type: String }) ip: string | null;
  @ApiProperty({ format: 'date-time' }) created_at: string;
}

export class AuditLogDto {
  @ApiProperty({ type: [AuditEntryDto] }) items: AuditEntryDto[];
  @ApiProperty({ nullable: true, type: String, description: 'Pass as `cursor` for older entries' }) next_cursor: string | null;
}

export class AuditLogQuery {
  @ApiProperty({ required: false, minimum: 1, maximum: 500, default: 100 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(500)
  limit?: number;

  @ApiProperty({ required: false, description: 'next_cursor of the previous page' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  cursor?: number;
}

function toAuditEntryDto(row: AuditRow): AuditEntryDto {
  return {
    id: row.id,
    user_id: row.userId,
    api_key_id: row.apiKeyId,
    action: row.action,
    method: row.method,
    path: row.path,
    status_code: row.statusCode,
    request_id: row.requestId,
    ip: row.ip,
    created_at: row.createdAt.toISOString(),
  };
}

@ApiTags('audit')
@Controller('projects/:project/audit-log')
export class AuditController {
  constructor(
    private readonly audit: AuditRepository,
    private readonly access: ProjectAccess,
  ) {}

  @Get()
  @ApiOperation({ operationId: 'listAuditLog', summary: 'Every mutating call on the project, newest first' })
  @ApiOkResponse({ type: AuditLogDto })
  @ApiErrors(400, 401, 404)
  async list(@Auth() auth: AuthContext, @Param() params: ProjectParams, @Query() query: AuditLogQuery): Promise<AuditLogDto> {
    await this.access.require(auth, params.project);
    const limit = query.limit ?? 100;
    const rows = await this.audit.list(params.project, limit + 1, query.cursor);
    const page = rows.slice(0, limit);
    return { items: page.map(toAuditEntryDto), next_cursor: rows.length > limit ? String(page[page.length - 1]!.id) : null };
  }
}
