import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsUUID,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';
import {
  ARCHITECTURES,
  BACKUP_RETENTION_DAYS_DEFAULT,
  BACKUP_RETENTION_DAYS_MAX,
  BACKUP_RETENTION_DAYS_MIN,
  BACKUP_WINDOW_DEFAULT,
  BACKUP_WINDOW_MIN_MINUTES,
  DB_PASSWORD,
  INSTANCE_NAME,
  NODE_ROLES,
  REPLICAS_MAX,
  REPLICAS_MIN,
  REPLICATION_MODES,
} from '@basalt/api-client/rules';
import { ENDPOINT_ROLES, NODE_STATUSES } from '@basalt/db';
import { IsBackupRetentionDays, IsBackupWindow, IsOptionalNotNull, IsPointInTime, IsTags } from '../common/validators.js';
import { OperationDto } from '../operations/operation.dto.js';
import { AllowlistEntryInputDto, MAX_ALLOWLIST_ENTRIES } from './allowlist.dto.js';

export const INSTANCE_STATUSES = ['creating', 'running', 'modifying', 'restarting', 'deleting', 'deleted', 'create_failed', 'error'] as const;
export const INSTANCE_HEALTH = ['healthy', 'degraded', 'unavailable'] as const;
export const ENGINE_VERSIONS = ['1.0'] as const;
export const FSYNC_POLICIES = ['always', 'everysec', 'no'] as const;

/**
 * Engine parameters: each one reaches the engine's config (CONFIG GET shows it). There is no
 * eviction policy: the engine keeps every key and serves values larger than memory from disk.
 */
export class InstanceParametersDto {
  @ApiProperty({ required: false, enum: FSYNC_POLICIES, description: 'When the write-ahead log is fsynced' })
  @IsOptionalNotNull()
  @IsIn(FSYNC_POLICIES)
  fsync?: (typeof FSYNC_POLICIES)[number];

  @ApiProperty({ required: false, minimum: 1, maximum: 100000, description: 'Connection limit; at most the instance type allows' })
  @IsOptionalNotNull()
  @IsInt()
  @Min(1)
  @Max(100000)
  maxclients?: number;

  @ApiProperty({ required: false, minimum: 0, maximum: 86400, description: 'Idle client timeout in seconds (0: never)' })
  @IsOptionalNotNull()
  @IsInt()
  @Min(0)
  @Max(86400)
  timeout?: number;

  @ApiProperty({
    required: false,
    enum: REPLICATION_MODES,
    description: '`standard` instances only (default `sync`). `sync`: a write is acknowledged once a replica holds it, so a failover loses no acknowledged write; `async`: acknowledged at once, a failover may lose what the replicas had not received yet (see nodes[].lag_bytes)',
  })
  @IsOptionalNotNull()
  @IsIn(REPLICATION_MODES)
  replication_mode?: (typeof REPLICATION_MODES)[number];
}

/**
 * What a new instance's data is restored from: exactly one of `backup_id`, `source_instance_id`
 * with `point_in_time`, or `rdb_import_id`. The same shape is shown as the instance's `restored_from`.
 */
export class RestoreSourceDto {
  @ApiProperty({ required: false, format: 'uuid', description: 'An RDB file uploaded to this project (POST …/rdb-imports), not expired; its keys become the new instance\'s data' })
  @IsOptionalNotNull()
  @IsUUID('all')
  rdb_import_id?: string;

  @ApiProperty({ required: false, format: 'uuid', description: 'A succeeded backup of an instance of this project: restored to its consistent point (end_time)' })
  @IsOptionalNotNull()
  @IsUUID('all')
  backup_id?: string;

  @ApiProperty({ required: false, format: 'uuid', description: 'An instance of this project (deleted ones too, while their backups are kept), with point_in_time' })
  @IsOptionalNotNull()
  @IsUUID('all')
  source_instance_id?: string;

  @ApiProperty({
    required: false,
    format: 'date-time',
    example: '2026-12-01T10:15:30Z',
    description: "RFC 3339 to the second with a time zone, inside the source's restore window (GET …/restore-window)",
  })
  @IsOptionalNotNull()
  @IsString()
  @MaxLength(64)
  @IsPointInTime()
  point_in_time?: string;
}

const backupWindowProperty = {
  example: BACKUP_WINDOW_DEFAULT,
  description: `The daily automatic backup's window, UTC, HH:MM-HH:MM (may cross midnight), at least ${BACKUP_WINDOW_MIN_MINUTES} minutes`,
} as const;
const retentionProperty = {
  minimum: BACKUP_RETENTION_DAYS_MIN,
  maximum: BACKUP_RETENTION_DAYS_MAX,
  description: 'Days automatic and final backups are kept; 0: no automatic backups (manual ones are kept until deleted)',
} as const;

const dataBrowserDescription =
  "The console's data browser: keys, values and a command line, as a database user whose password is typed in the browser. Off: its routes answer 409 data_browser_disabled";
const nameProperty = { minLength: 1, maxLength: 63, pattern: INSTANCE_NAME.source, example: 'sessions-cache' };
const nameMessage = 'name must be 1-63 lowercase letters, digits or hyphens, start with a letter and not end with a hyphen';
const tagsProperty = { type: 'object', additionalProperties: { type: 'string', maxLength: 256 }, example: { team: 'web' } } as const;

export class CreateInstanceDto {
  @ApiProperty(nameProperty)
  @IsString()
  @Matches(INSTANCE_NAME, { message: nameMessage })
  name: string;

  @ApiProperty({ example: 'kv.standard.xlarge' })
  @IsString()
  @MaxLength(64)
  instance_type: string;

  @ApiProperty({ example: 'local' })
  @IsString()
  @MaxLength(64)
  region: string;

  @ApiProperty({ required: false, enum: ENGINE_VERSIONS, default: '1.0' })
  @IsOptional()
  @IsIn(ENGINE_VERSIONS)
  engine_version?: (typeof ENGINE_VERSIONS)[number];

  @ApiProperty({
    required: false,
    enum: ARCHITECTURES,
    default: 'standalone',
    description: '`standalone`: one node. `standard`: a primary and `replicas` replicas on separate VMs, with automatic failover; the primary endpoint follows the primary',
  })
  @IsOptional()
  @IsIn(ARCHITECTURES)
  architecture?: (typeof ARCHITECTURES)[number];

  @ApiProperty({ required: false, minimum: REPLICAS_MIN, maximum: REPLICAS_MAX, description: '`standard` only (default 1). Each replica is a VM of the same instance type and counts against the quota' })
  @IsOptional()
  @IsInt()
  @Min(REPLICAS_MIN)
  @Max(REPLICAS_MAX)
  replicas?: number;

  @ApiProperty({ required: false, minimum: 1, maximum: 100000, description: "Defaults to the type's minimum" })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(100000)
  disk_gib?: number;

  @ApiProperty({ required: false, minLength: 12, maxLength: 128, format: 'password', description: 'Password of user `default`; generated and returned once when absent' })
  @IsOptional()
  @IsString()
  @Matches(DB_PASSWORD, { message: 'password must be 12-128 printable ASCII characters without spaces, quotes or backslashes' })
  password?: string;

  @ApiProperty({ required: false, type: [AllowlistEntryInputDto], maxItems: MAX_ALLOWLIST_ENTRIES })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_ALLOWLIST_ENTRIES)
  @ValidateNested({ each: true })
  @Type(() => AllowlistEntryInputDto)
  allowlist?: AllowlistEntryInputDto[];

  @ApiProperty({ required: false, default: false })
  @IsOptional()
  @IsBoolean()
  tls_enabled?: boolean;

  @ApiProperty({ required: false, default: false })
  @IsOptional()
  @IsBoolean()
  deletion_protection?: boolean;

  @ApiProperty({ required: false, default: true, description: dataBrowserDescription })
  @IsOptional()
  @IsBoolean()
  data_browser_enabled?: boolean;

  @ApiPropertyOptional(tagsProperty)
  @IsOptional()
  @IsTags()
  tags?: Record<string, string>;

  @ApiProperty({ required: false, type: InstanceParametersDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => InstanceParametersDto)
  parameters?: InstanceParametersDto;

  @ApiProperty({ required: false, ...backupWindowProperty, default: BACKUP_WINDOW_DEFAULT })
  @IsOptionalNotNull()
  @IsBackupWindow()
  backup_window?: string;

  @ApiProperty({ required: false, ...retentionProperty, default: BACKUP_RETENTION_DAYS_DEFAULT })
  @IsOptionalNotNull()
  @IsBackupRetentionDays()
  backup_retention_days?: number;

  @ApiProperty({
    required: false,
    type: RestoreSourceDto,
    description: "Start with the data of a backup, of an instance at a point in time, or of an uploaded RDB file (the type's disk must hold it)",
  })
  @IsOptionalNotNull()
  @ValidateNested()
  @Type(() => RestoreSourceDto)
  restore_from?: RestoreSourceDto;
}

export class UpdateInstanceDto {
  @ApiProperty({ required: false, ...nameProperty })
  @IsOptionalNotNull()
  @IsString()
  @Matches(INSTANCE_NAME, { message: nameMessage })
  name?: string;

  @ApiProperty({ required: false, description: 'Resize to another instance type' })
  @IsOptionalNotNull()
  @IsString()
  @MaxLength(64)
  instance_type?: string;

  @ApiProperty({ required: false, minimum: 1, maximum: 100000, description: 'Disks only grow' })
  @IsOptionalNotNull()
  @IsInt()
  @Min(1)
  @Max(100000)
  disk_gib?: number;

  @ApiPropertyOptional({ ...tagsProperty, description: 'Replaces all tags' })
  @IsOptionalNotNull()
  @IsTags()
  tags?: Record<string, string>;

  @ApiProperty({ required: false })
  @IsOptionalNotNull()
  @IsBoolean()
  deletion_protection?: boolean;

  @ApiProperty({ required: false, description: dataBrowserDescription })
  @IsOptionalNotNull()
  @IsBoolean()
  data_browser_enabled?: boolean;

  @ApiProperty({ required: false, type: InstanceParametersDto, description: 'Merged into the current parameters' })
  @IsOptionalNotNull()
  @ValidateNested()
  @Type(() => InstanceParametersDto)
  parameters?: InstanceParametersDto;

  @ApiProperty({ required: false, ...backupWindowProperty })
  @IsOptionalNotNull()
  @IsBackupWindow()
  backup_window?: string;

  @ApiProperty({ required: false, ...retentionProperty })
  @IsOptionalNotNull()
  @IsBackupRetentionDays()
  backup_retention_days?: number;
}

export class EndpointDto {
  @ApiProperty({ enum: ENDPOINT_ROLES, description: '`primary`: reads and writes, follows the primary on failover; `readonly`: a replica' })
  role: (typeof ENDPOINT_ROLES)[number];
  @ApiProperty({ enum: ['private', 'public'] }) type: 'private' | 'public';
  @ApiProperty() host: string;
  @ApiProperty() port: number;
  @ApiProperty() tls: boolean;
  @ApiProperty({ required: false, description: 'PEM of the CA that signed the endpoint certificate (TLS endpoints only)' })
  ca_certificate?: string;
}

export class NodeDto {
  @ApiProperty({ example: '5f0c…-0' }) name: string;
  @ApiProperty({ example: '10.77.0.2' }) private_ip: string;
  @ApiProperty({ enum: NODE_ROLES }) role: (typeof NODE_ROLES)[number];
  @ApiProperty({ enum: NODE_STATUSES }) status: (typeof NODE_STATUSES)[number];
  @ApiProperty({ nullable: true, type: Number, description: "Bytes of the primary's replication stream this replica has not received yet; null for the primary or when unknown" })
  lag_bytes: number | null;
}

export class FaultDto {
  @ApiProperty({ required: false }) code?: string;
  @ApiProperty() message: string;
  @ApiProperty({ nullable: true, type: String }) step: string | null;
  @ApiProperty({ required: false, nullable: true, type: Number }) exit_code?: number | null;
  @ApiProperty({ required: false }) output_tail?: string;
  @ApiProperty({ required: false, format: 'uuid' }) operation_id?: string;
}

export class InstanceDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) project_id: string;
  @ApiProperty() name: string;
  @ApiProperty() instance_type: string;
  @ApiProperty() region: string;
  @ApiProperty() engine_version: string;
  @ApiProperty() disk_gib: number;
  @ApiProperty({ enum: ARCHITECTURES }) architecture: (typeof ARCHITECTURES)[number];
  @ApiProperty({ description: 'Replicas beside the primary (0 for standalone)' }) replicas: number;
  @ApiProperty({ enum: INSTANCE_STATUSES }) status: (typeof INSTANCE_STATUSES)[number];
  @ApiProperty({ enum: INSTANCE_HEALTH, nullable: true }) health: (typeof INSTANCE_HEALTH)[number] | null;
  @ApiProperty({ nullable: true, type: String, description: 'Why health is not healthy, as the health monitor found it; null when healthy' })
  health_reason: string | null;
  @ApiProperty({ type: FaultDto, nullable: true }) fault: FaultDto | null;
  @ApiProperty({ type: [EndpointDto] }) endpoints: EndpointDto[];
  @ApiProperty({ nullable: true, type: String, example: 'redis://default:********@10.77.0.2:6379', description: 'Password redacted' })
  connection_uri: string | null;
  @ApiProperty({ type: [NodeDto] }) nodes: NodeDto[];
  @ApiProperty() tls_enabled: boolean;
  @ApiProperty() deletion_protection: boolean;
  @ApiProperty({ description: dataBrowserDescription }) data_browser_enabled: boolean;
  @ApiProperty(tagsProperty) tags: Record<string, string>;
  @ApiProperty({ type: InstanceParametersDto }) parameters: InstanceParametersDto;
  @ApiProperty(backupWindowProperty) backup_window: string;
  @ApiProperty(retentionProperty) backup_retention_days: number;
  @ApiProperty({ type: RestoreSourceDto, nullable: true, description: 'What the data was restored from when the instance was made; null: it started empty' })
  restored_from: RestoreSourceDto | null;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) current_operation_id: string | null;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
}

export class InstanceDetailDto extends InstanceDto {
  @ApiProperty({ type: OperationDto, nullable: true }) current_operation: OperationDto | null;
}

export class InstanceListDto {
  @ApiProperty({ type: [InstanceDto] }) items: InstanceDto[];
  @ApiProperty({ nullable: true, type: String, description: 'Pass as `cursor` for the next page; null on the last page' }) next_cursor: string | null;
}

export class DefaultUserCredentialsDto {
  @ApiProperty({ example: 'default' }) username: string;
  @ApiProperty({ description: 'Shown only in this response' }) password: string;
}

export class InstanceAcceptedDto {
  @ApiProperty({ type: InstanceDto }) instance: InstanceDto;
  @ApiProperty({ type: OperationDto, nullable: true, description: 'Null when the change needed no work on the instance' }) operation: OperationDto | null;
}

export class CreatedInstanceDto extends InstanceAcceptedDto {
  @ApiProperty({ type: DefaultUserCredentialsDto }) default_user: DefaultUserCredentialsDto;
}

const splitList = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.split(',').filter(Boolean) : value);

export class InstanceListQuery {
  @ApiPropertyOptional({
    enum: INSTANCE_STATUSES,
    isArray: true,
    description: 'Statuses to include (repeat the parameter or separate with commas); deleted instances are hidden unless asked for',
  })
  @IsOptional()
  @Transform(splitList)
  @IsArray()
  @ArrayMaxSize(8)
  @IsIn(INSTANCE_STATUSES, { each: true })
  status?: (typeof INSTANCE_STATUSES)[number][];

  @ApiProperty({ required: false }) @IsOptional() @IsString() @MaxLength(64) region?: string;
  @ApiProperty({ required: false }) @IsOptional() @IsString() @MaxLength(64) instance_type?: string;

  @ApiProperty({ required: false, description: 'Case-insensitive substring of the name' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(63)
  name?: string;

  @ApiProperty({ required: false, description: '`key` (has the tag) or `key:value`' })
  @IsOptional()
  @IsString()
  @Matches(/^[A-Za-z0-9_.\/=+@-]{1,64}(:.{0,256})?$/, { message: 'tag must be key or key:value' })
  tag?: string;

  @ApiProperty({ required: false, enum: ['created_at', 'name'], default: 'created_at' })
  @IsOptional()
  @IsIn(['created_at', 'name'])
  sort?: 'created_at' | 'name';

  @ApiProperty({ required: false, enum: ['asc', 'desc'], default: 'desc' })
  @IsOptional()
  @IsIn(['asc', 'desc'])
  order?: 'asc' | 'desc';

  @ApiProperty({ required: false, minimum: 1, maximum: 200, default: 50 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(200)
  limit?: number;

  @ApiProperty({ required: false, description: 'next_cursor of the previous page' })
  @IsOptional()
  @IsString()
  @MaxLength(300)
  cursor?: string;
}
