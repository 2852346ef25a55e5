import { type DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE } from '@nestjs/core';
import { ApiConfig } from './config.js';
import { DatabaseModule } from './database/database.module.js';
import { AuthGuard } from './common/auth.guard.js';
import { ErrorFilter } from './common/error.filter.js';
import { RequestValidationPipe } from './common/validation.pipe.js';
import { AuthController } from './auth/auth.controller.js';
import { AuthService } from './auth/auth.service.js';
import { HealthController } from './health/health.controller.js';

@Module({})
export class AppModule {
  static register(config: ApiConfig): DynamicModule {
    return {
      module: AppModule,
      global: true,
      imports: [DatabaseModule],
      controllers: [HealthController, AuthController],
      providers: [
        { provide: ApiConfig, useValue: config },
        { provide: APP_GUARD, useClass: AuthGuard },
        { provide: APP_FILTER, useClass: ErrorFilter },
        { provide: APP_PIPE, useClass: RequestValidationPipe },
        AuthService,
      ],
      exports: [ApiConfig],
    };
  }
}
