// Builds the Nest application (routes, plumbing, OpenAPI) without touching the database, so the
// same code serves `main.ts`, the spec generator and the tests.
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { AppModule } from './app.module.js';
import type { ApiConfig } from './config.js';
import { installHttpPlumbing } from './common/http-setup.js';
import { SESSION_COOKIE } from './common/auth.guard.js';

export async function createApp(config: ApiConfig): Promise<{ app: NestExpressApplication; document: OpenAPIObject }> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.register(config), {
    bodyParser: false,
    logger: ['error', 'warn', 'log'],
  });
  installHttpPlumbing(app);
  app.setGlobalPrefix('v1');
  app.enableShutdownHooks();
  const document = buildOpenApiDocument(app);
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'v1/openapi.json', yamlDocumentUrl: 'v1/openapi.yaml' });
  return { app, document };
}

export function buildOpenApiDocument(app: NestExpressApplication): OpenAPIObject {
  const options = new DocumentBuilder()
    .setTitle('Basalt API')
    .setDescription('Control plane of Basalt, a managed Redis-compatible key-value database. JSON in snake_case.')
    .setVersion('1.0.0')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'API key from POST /v1/api-keys' })
    .addCookieAuth(SESSION_COOKIE)
    .addSecurityRequirements('bearer')
    .addSecurityRequirements('cookie')
    .build();
  return SwaggerModule.createDocument(app, options, { operationIdFactory: (_controller, method) => method });
}
