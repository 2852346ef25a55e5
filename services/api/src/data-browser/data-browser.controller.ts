import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Req } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { Auth } from '../common/decorators.js';
import type { AuthContext } from '../common/request-context.js';
import { ApiErrors } from '../common/api-errors.js';
import { ProjectInstanceParams } from '../common/params.js';
import {
  DataAccessDto,
  DataCommandDto,
  DataCommandResultDto,
  DataEditDto,
  DataKeyDeleteQuery,
  DataKeyQuery,
  DataKeysDto,
  DataKeysQuery,
  DataTtlDto,
  DataValueDto,
} from './data-browser.dto.js';
import { CredentialHeaders, Credentials, type DatabaseCredentials } from './database-credentials.js';
import { DataBrowserService, type AuditNote } from './data-browser.service.js';

const noteOn = (request: Request): AuditNote => (detail) => {
  request.auditDetail = detail;
};

@ApiTags('data browser')
@CredentialHeaders()
@ApiErrors(400, 401, 403, 404, 409, 503, 504)
@Controller('projects/:project/instances/:instance/data')
export class DataBrowserController {
  constructor(private readonly service: DataBrowserService) {}

  @Get('access')
  @ApiOperation({ operationId: 'getDataAccess', summary: 'Log in as a database user: its permission (read-only or not) and the key count; 403 for a wrong password' })
  @ApiOkResponse({ type: DataAccessDto })
  access(@Auth() auth: AuthContext, @Param() params: ProjectInstanceParams, @Credentials() credentials: DatabaseCredentials): Promise<DataAccessDto> {
    return this.service.access(auth, params.project, params.instance, credentials);
  }

  @Get('keys')
  @ApiOperation({ operationId: 'listDataKeys', summary: 'One page of keys by SCAN (MATCH, TYPE, COUNT), each with its type and TTL; never KEYS' })
  @ApiOkResponse({ type: DataKeysDto })
  keys(@Auth() auth: AuthContext, @Param() params: ProjectInstanceParams, @Credentials() credentials: DatabaseCredentials, @Query() query: DataKeysQuery): Promise<DataKeysDto> {
    return this.service.keys(auth, params.project, params.instance, credentials, query);
  }

  @Get('value')
  @ApiOperation({ operationId: 'getDataValue', summary: "One page of a key's value with its type, TTL and MEMORY USAGE; strings cut to their first 64 KiB" })
  @ApiOkResponse({ type: DataValueDto })
  value(@Auth() auth: AuthContext, @Param() params: ProjectInstanceParams, @Credentials() credentials: DatabaseCredentials, @Query() query: DataKeyQuery): Promise<DataValueDto> {
    return this.service.value(auth, params.project, params.instance, credentials, query);
  }

  @Post('edits')
  @HttpCode(204)
  @ApiOperation({ operationId: 'editDataValue', summary: 'One change to a value (SET, HSET, ZADD ...); audited by its kind, never its value' })
  @ApiNoContentResponse()
  edit(@Auth() auth: AuthContext, @Param() params: ProjectInstanceParams, @Credentials() credentials: DatabaseCredentials, @Body() body: DataEditDto, @Req() request: Request): Promise<void> {
    return this.service.edit(auth, params.project, params.instance, credentials, body, noteOn(request));
  }

  @Put('ttl')
  @HttpCode(204)
  @ApiOperation({ operationId: 'setDataTtl', summary: "Set a key's time to live (EXPIRE) or remove it (PERSIST)" })
  @ApiNoContentResponse()
  ttl(@Auth() auth: AuthContext, @Param() params: ProjectInstanceParams, @Credentials() credentials: DatabaseCredentials, @Body() body: DataTtlDto, @Req() request: Request): Promise<void> {
    return this.service.ttl(auth, params.project, params.instance, credentials, body, noteOn(request));
  }

  @Delete('value')
  @HttpCode(204)
  @ApiOperation({ operationId: 'deleteDataKey', summary: 'Delete a key (DEL)' })
  @ApiNoContentResponse()
  delete(@Auth() auth: AuthContext, @Param() params: ProjectInstanceParams, @Credentials() credentials: DatabaseCredentials, @Query() query: DataKeyDeleteQuery): Promise<void> {
    return this.service.delete(auth, params.project, params.instance, credentials, query.key);
  }

  @Post('command')
  @HttpCode(200)
  @ApiOperation({ operationId: 'runDataCommand', summary: 'Run one command as the database user, split as redis-cli splits a line; the reply as redis-cli prints it' })
  @ApiOkResponse({ type: DataCommandResultDto })
  command(@Auth() auth: AuthContext, @Param() params: ProjectInstanceParams, @Credentials() credentials: DatabaseCredentials, @Body() body: DataCommandDto, @Req() request: Request): Promise<DataCommandResultDto> {
    return this.service.command(auth, params.project, params.instance, credentials, body, noteOn(request));
  }
}
