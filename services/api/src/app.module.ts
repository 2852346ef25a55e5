import { type DynamicModule, type MiddlewareConsumer, Module, type NestModule, RequestMethod } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR, APP_PIPE } from '@nestjs/core';
import { ApiConfig } from './config.js';
import { DatabaseModule } from './database/database.module.js';
import { AuthGuard } from './common/auth.guard.js';
import { AuthCache } from './common/auth-cache.js';
import { ErrorFilter } from './common/error.filter.js';
import { IdempotencyInterceptor } from './common/idempotency.interceptor.js';
import { RequestValidationPipe } from './common/validation.pipe.js';
import { StorableTextInterceptor } from './common/storable-text.interceptor.js';
import { AuditMiddleware } from './audit/audit.middleware.js';
import { AuditController } from './audit/audit.controller.js';
import { AuthController } from './auth/auth.controller.js';
import { AuthService } from './auth/auth.service.js';
import { ApiKeyController } from './api-keys/api-key.controller.js';
import { ApiKeyService } from './api-keys/api-key.service.js';
import { BackupController } from './backups/backup.controller.js';
import { BackupService } from './backups/backup.service.js';
import { RdbFileController } from './backups/rdb-file.controller.js';
import { RdbExportService } from './backups/rdb-export.service.js';
import { RdbImportService } from './backups/rdb-import.service.js';
import { RdbStore } from './backups/rdb-store.js';
import { BenchmarkController } from './benchmarks/benchmark.controller.js';
import { BenchmarkService } from './benchmarks/benchmark.service.js';
import { TypeReportController } from './benchmarks/type-report.controller.js';
import { TypeReportService } from './benchmarks/type-report.service.js';
import { CatalogController } from './catalog/catalog.controller.js';
import { DataBrowserConnector } from './data-browser/data-browser.connector.js';
import { DataBrowserController } from './data-browser/data-browser.controller.js';
import { DataBrowserService } from './data-browser/data-browser.service.js';
import { HealthController } from './health/health.controller.js';
import { AllowlistController } from './instances/allowlist.controller.js';
import { AllowlistService } from './instances/allowlist.service.js';
import { InstanceController } from './instances/instance.controller.js';
import { InstanceService } from './instances/instance.service.js';
import { InstanceUserController } from './instances/instance-user.controller.js';
import { InstanceUserService } from './instances/instance-user.service.js';
import { InstanceMetricsController } from './monitoring/instance-metrics.controller.js';
import { InstanceMetricsService } from './monitoring/instance-metrics.service.js';
import { InstanceSlowlogService } from './monitoring/instance-slowlog.service.js';
import { OperationController } from './operations/operation.controller.js';
import { EventStreamSlots } from './operations/event-stream-slots.js';
import { OperationService } from './operations/operation.service.js';
import { OperationStarter } from './operations/operation-starter.service.js';
import { ProjectAccess } from './projects/project-access.service.js';
import { ProjectController } from './projects/project.controller.js';
import { ProjectService } from './projects/project.service.js';
import { UserController } from './users/user.controller.js';

@Module({})
export class AppModule implements NestModule {
  static register(config: ApiConfig): DynamicModule {
    return {
      module: AppModule,
      global: true,
      imports: [DatabaseModule],
      controllers: [
        HealthController,
        AuthController,
        UserController,
        ApiKeyController,
        ProjectController,
        CatalogController,
        InstanceController,
        InstanceUserController,
        AllowlistController,
        OperationController,
        BenchmarkController,
        TypeReportController,
        BackupController,
        RdbFileController,
        InstanceMetricsController,
        DataBrowserController,
        AuditController,
      ],
      providers: [
        { provide: ApiConfig, useValue: config },
        { provide: APP_GUARD, useClass: AuthGuard },
        { provide: APP_FILTER, useClass: ErrorFilter },
        { provide: APP_PIPE, useClass: RequestValidationPipe },
        { provide: APP_INTERCEPTOR, useClass: StorableTextInterceptor },
        IdempotencyInterceptor,
        AuthCache,
        AuthService,
        ApiKeyService,
        ProjectAccess,
        ProjectService,
        OperationStarter,
        InstanceService,
        InstanceUserService,
        AllowlistService,
        OperationService,
        EventStreamSlots,
        BenchmarkService,
        TypeReportService,
        BackupService,
        RdbExportService,
        RdbImportService,
        RdbStore,
        InstanceMetricsService,
        InstanceSlowlogService,
        DataBrowserConnector,
        DataBrowserService,
      ],
      exports: [ApiConfig],
    };
  }

  configure(consumer: MiddlewareConsumer): void {
    // Only mutating calls are audited, so reads skip the middleware entirely.
    consumer
      .apply(AuditMiddleware)
      .forRoutes(
        { path: '*path', method: RequestMethod.POST },
        { path: '*path', method: RequestMethod.PUT },
        { path: '*path', method: RequestMethod.PATCH },
        { path: '*path', method: RequestMethod.DELETE },
      );
  }
}
