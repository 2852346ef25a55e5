import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { countAppliedMigrations, type Database } from '@basalt/db';
import { Public } from '../common/decorators.js';
import { DATABASE } from '../database/database.module.js';
import { ServiceUnavailable } from '../common/errors.js';
import { ApiErrors } from '../common/api-errors.js';

export class HealthDto {
  @ApiProperty({ enum: ['ok'] }) status: 'ok';
  @ApiProperty({ enum: ['ok'] }) database: 'ok';
  @ApiProperty({ description: 'Number of applied schema migrations' }) migrations: number;
}

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(@Inject(DATABASE) private readonly database: Database) {}

  @Public()
  @Get()
  @ApiOperation({ operationId: 'getHealth', summary: 'Liveness and database reachability' })
  @ApiOkResponse({ type: HealthDto })
  @ApiErrors(503)
  async health(): Promise<HealthDto> {
    try {
      const migrations = await countAppliedMigrations(this.database.pool);
      return { status: 'ok', database: 'ok', migrations };
    } catch {
      throw new ServiceUnavailable('Database unreachable');
    }
  }
}
