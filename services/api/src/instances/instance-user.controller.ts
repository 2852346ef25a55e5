import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiAcceptedResponse, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth } from '../common/decorators.js';
import type { AuthContext } from '../common/request-context.js';
import { ApiErrors } from '../common/api-errors.js';
import { Idempotent } from '../common/idempotent.decorator.js';
import { InstanceUserParams, ProjectInstanceParams } from '../common/params.js';
import {
  CreateInstanceUserDto,
  InstanceUserChangeDto,
  InstanceUserDeletedDto,
  InstanceUserDto,
  InstanceUserListDto,
  InstanceUserWithPasswordDto,
  ResetPasswordDto,
  UpdateInstanceUserDto,
} from './instance-user.dto.js';
import { InstanceUserService } from './instance-user.service.js';

@ApiTags('instance-users')
@Controller('projects/:project/instances/:instance/users')
export class InstanceUserController {
  constructor(private readonly service: InstanceUserService) {}

  @Get()
  @ApiOperation({ operationId: 'listInstanceUsers' })
  @ApiOkResponse({ type: InstanceUserListDto })
  @ApiErrors(400, 401, 404)
  async list(@Auth() auth: AuthContext, @Param() params: ProjectInstanceParams): Promise<InstanceUserListDto> {
    return { items: await this.service.list(auth, params.project, params.instance) };
  }

  @Get(':username')
  @ApiOperation({ operationId: 'getInstanceUser' })
  @ApiOkResponse({ type: InstanceUserDto })
  @ApiErrors(400, 401, 404)
  get(@Auth() auth: AuthContext, @Param() params: InstanceUserParams): Promise<InstanceUserDto> {
    return this.service.get(auth, params.project, params.instance, params.username);
  }

  @Post()
  @Idempotent('member')
  @ApiOperation({ operationId: 'createInstanceUser', summary: 'Create a database user; the password is returned once' })
  @ApiCreatedResponse({ type: InstanceUserWithPasswordDto })
  @ApiErrors(400, 401, 403, 404, 409, 429)
  create(@Auth() auth: AuthContext, @Param() params: ProjectInstanceParams, @Body() body: CreateInstanceUserDto): Promise<InstanceUserWithPasswordDto> {
    return this.service.create(auth, params.project, params.instance, body.username, body.permission, body.password);
  }

  @Patch(':username')
  @ApiOperation({ operationId: 'updateInstanceUser', summary: 'Change the permission' })
  @ApiOkResponse({ type: InstanceUserChangeDto })
  @ApiErrors(400, 401, 403, 404, 409)
  update(@Auth() auth: AuthContext, @Param() params: InstanceUserParams, @Body() body: UpdateInstanceUserDto): Promise<InstanceUserChangeDto> {
    return this.service.update(auth, params.project, params.instance, params.username, body.permission);
  }

  @Post(':username/reset-password')
  @HttpCode(200)
  @Idempotent('member')
  @ApiOperation({ operationId: 'resetInstanceUserPassword', summary: 'New password (returned once); the old one stays valid until revoked or the rotation window ends' })
  @ApiOkResponse({ type: InstanceUserWithPasswordDto })
  @ApiErrors(400, 401, 403, 404, 409, 429)
  resetPassword(@Auth() auth: AuthContext, @Param() params: InstanceUserParams, @Body() body: ResetPasswordDto): Promise<InstanceUserWithPasswordDto> {
    return this.service.resetPassword(auth, params.project, params.instance, params.username, body.password);
  }

  @Post(':username/revoke-old-password')
  @HttpCode(200)
  @Idempotent('member')
  @ApiOperation({ operationId: 'revokeOldInstanceUserPassword', summary: 'End the rotation window now' })
  @ApiOkResponse({ type: InstanceUserChangeDto })
  @ApiErrors(400, 401, 403, 404, 409, 429)
  revokeOldPassword(@Auth() auth: AuthContext, @Param() params: InstanceUserParams): Promise<InstanceUserChangeDto> {
    return this.service.revokeOldPassword(auth, params.project, params.instance, params.username);
  }

  @Delete(':username')
  @HttpCode(202)
  @ApiOperation({ operationId: 'deleteInstanceUser' })
  @ApiAcceptedResponse({ type: InstanceUserDeletedDto })
  @ApiErrors(400, 401, 403, 404, 409)
  delete(@Auth() auth: AuthContext, @Param() params: InstanceUserParams): Promise<InstanceUserDeletedDto> {
    return this.service.delete(auth, params.project, params.instance, params.username);
  }
}
