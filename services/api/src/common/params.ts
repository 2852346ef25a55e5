// Path parameter DTOs: malformed ids are a 400 naming the parameter, not a database error.
import { ApiProperty } from '@nestjs/swagger';
import { IsUUID, Matches, MaxLength } from 'class-validator';

export class ProjectParams {
  @ApiProperty({ format: 'uuid' }) @IsUUID('all') project: string;
}

export class ProjectInstanceParams extends ProjectParams {
  @ApiProperty({ format: 'uuid' }) @IsUUID('all') instance: string;
}

export class IdParams {
  @ApiProperty({ format: 'uuid' }) @IsUUID('all') id: string;
}

export class ProjectMemberParams extends ProjectParams {
  @ApiProperty({ format: 'uuid' }) @IsUUID('all') user: string;
}

export class InstanceUserParams extends ProjectInstanceParams {
  @ApiProperty({ pattern: '^[A-Za-z0-9_.-]{1,64}$' })
  @MaxLength(64)
  @Matches(/^[A-Za-z0-9_.-]{1,64}$/, { message: 'username must be 1-64 of A-Z a-z 0-9 _ . -' })
  username: string;
}

export class InstanceTypeParams {
  @ApiProperty({ example: 'kv.standard.xlarge' })
  @MaxLength(64)
  @Matches(/^[a-z0-9.]+$/, { message: 'id must be an instance type id such as kv.standard.xlarge' })
  id: string;
}

export class InstanceBenchmarkParams extends ProjectInstanceParams {
  @ApiProperty({ format: 'uuid' }) @IsUUID('all') benchmark: string;
}

export class ProjectBackupParams extends ProjectParams {
  @ApiProperty({ format: 'uuid' }) @IsUUID('all') backup: string;
}

export class ProjectExportParams extends ProjectParams {
  @ApiProperty({ format: 'uuid' }) @IsUUID('all') export: string;
}
