import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth } from '../common/decorators.js';
import type { AuthContext } from '../common/request-context.js';
import { ApiErrors } from '../common/api-errors.js';
import { Idempotent } from '../common/idempotent.decorator.js';
import { IdParams } from '../common/params.js';
import { ApiKeyListDto, CreateApiKeyDto, CreatedApiKeyDto } from './api-key.dto.js';
import { ApiKeyService } from './api-key.service.js';

@ApiTags('api-keys')
@Controller('api-keys')
export class ApiKeyController {
  constructor(private readonly service: ApiKeyService) {}

  @Post()
  @Idempotent('caller')
  @ApiOperation({ operationId: 'createApiKey', summary: 'Create an API key; the key is returned only here' })
  @ApiCreatedResponse({ type: CreatedApiKeyDto })
  @ApiErrors(400, 401, 409, 429)
  create(@Auth() auth: AuthContext, @Body() body: CreateApiKeyDto): Promise<CreatedApiKeyDto> {
    return this.service.create(auth, body.name, body.expires_at);
  }

  @Get()
  @ApiOperation({ operationId: 'listApiKeys', summary: "The caller's API keys (never the secrets)" })
  @ApiOkResponse({ type: ApiKeyListDto })
  @ApiErrors(401)
  async list(@Auth() auth: AuthContext): Promise<ApiKeyListDto> {
    return { items: await this.service.list(auth) };
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ operationId: 'revokeApiKey' })
  @ApiNoContentResponse()
  @ApiErrors(400, 401, 404)
  revoke(@Auth() auth: AuthContext, @Param() params: IdParams): Promise<void> {
    return this.service.revoke(auth, params.id);
  }
}
