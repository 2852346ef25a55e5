// Provides the pool, the repositories from @basalt/db and the pg-boss producer to every feature.
import { Global, Module } from '@nestjs/common';
import PgBoss from 'pg-boss';
import {
  AllowlistRepository,
  AuditRepository,
  BackupsRepository,
  BenchmarksRepository,
  CatalogRepository,
  createDatabase,
  EventStreamsRepository,
  type Database,
  IdempotencyRepository,
  InstanceUsersRepository,
  InstancesRepository,
  OperationsRepository,
  ProjectsRepository,
  RdbFilesRepository,
  TypeReportsRepository,
  UsersRepository,
} from '@basalt/db';
import { ApiConfig } from '../config.js';

export const DATABASE = Symbol('DATABASE');

const repositories = [
  UsersRepository,
  ProjectsRepository,
  CatalogRepository,
  InstancesRepository,
  InstanceUsersRepository,
  AllowlistRepository,
  OperationsRepository,
  BenchmarksRepository,
  AuditRepository,
  IdempotencyRepository,
  TypeReportsRepository,
  EventStreamsRepository,
  BackupsRepository,
  RdbFilesRepository,
];

@Global()
@Module({
  providers: [
    { provide: DATABASE, useFactory: (config: ApiConfig) => createDatabase(config.databaseUrl, { max: 20 }), inject: [ApiConfig] },
    {
      provide: PgBoss,
      // Producer only: no supervision or maintenance here; the worker runs those.
      useFactory: (config: ApiConfig) => new PgBoss({ connectionString: config.databaseUrl, max: 4, supervise: false, schedule: false }),
      inject: [ApiConfig],
    },
    ...repositories.map((repository) => ({
      provide: repository,
      useFactory: (database: Database) => new repository(database.db),
      inject: [DATABASE],
    })),
  ],
  exports: [DATABASE, PgBoss, ...repositories],
})
export class DatabaseModule {}
