import { Body, Controller, Get, Param, Patch, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth } from '../common/decorators.js';
import type { AuthContext } from '../common/request-context.js';
import { ApiErrors } from '../common/api-errors.js';
import { ProjectInstanceParams } from '../common/params.js';
import { AllowlistDto, PatchAllowlistDto, ReplaceAllowlistDto } from './allowlist.dto.js';
import { AllowlistService } from './allowlist.service.js';

@ApiTags('allowlist')
@Controller('projects/:project/instances/:instance/allowlist')
export class AllowlistController {
  constructor(private readonly service: AllowlistService) {}

  @Get()
  @ApiOperation({ operationId: 'getAllowlist' })
  @ApiOkResponse({ type: AllowlistDto })
  @ApiErrors(400, 401, 404)
  get(@Auth() auth: AuthContext, @Param() params: ProjectInstanceParams): Promise<AllowlistDto> {
    return this.service.get(auth, params.project, params.instance);
  }

  @Put()
  @ApiOperation({ operationId: 'replaceAllowlist', summary: 'Replace every entry (at most 1000)' })
  @ApiOkResponse({ type: AllowlistDto })
  @ApiErrors(400, 401, 403, 404, 409)
  replace(@Auth() auth: AuthContext, @Param() params: ProjectInstanceParams, @Body() body: ReplaceAllowlistDto): Promise<AllowlistDto> {
    return this.service.replace(auth, params.project, params.instance, body.entries);
  }

  @Patch()
  @ApiOperation({ operationId: 'patchAllowlist', summary: 'Add and remove entries' })
  @ApiOkResponse({ type: AllowlistDto })
  @ApiErrors(400, 401, 403, 404, 409)
  patch(@Auth() auth: AuthContext, @Param() params: ProjectInstanceParams, @Body() body: PatchAllowlistDto): Promise<AllowlistDto> {
    return this.service.patch(auth, params.project, params.instance, body.add ?? [], body.remove ?? []);
  }
}
