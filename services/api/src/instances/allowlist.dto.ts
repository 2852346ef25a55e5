import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import type { AllowlistEntryRow } from '@basalt/db';
import { IsOptionalNotNull } from '../common/validators.js';
import { OperationDto } from '../operations/operation.dto.js';

import { ALLOWLIST_MAX } from '@basalt/api-client/rules';

export const MAX_ALLOWLIST_ENTRIES = ALLOWLIST_MAX;

export class AllowlistEntryInputDto {
  @ApiProperty({ example: '10.0.0.0/8', description: 'IPv4 or IPv6 CIDR; a bare address means one host' })
  @IsString()
  @MaxLength(64)
  cidr: string;

  @ApiProperty({ required: false, maxLength: 256, default: '' })
  @IsOptional()
  @IsString()
  @MaxLength(256)
  description?: string;
}

export class AllowlistEntryDto {
  @ApiProperty() cidr: string;
  @ApiProperty() description: string;
  @ApiProperty({ format: 'date-time' }) created_at: string;
}

export class AllowlistDto {
  @ApiProperty({ type: [AllowlistEntryDto] }) items: AllowlistEntryDto[];
  @ApiProperty({ type: OperationDto, nullable: true, description: 'The operation applying the change to the running engine' })
  operation: OperationDto | null;
}

export class ReplaceAllowlistDto {
  @ApiProperty({ type: [AllowlistEntryInputDto], maxItems: MAX_ALLOWLIST_ENTRIES })
  @IsArray()
  @ArrayMaxSize(MAX_ALLOWLIST_ENTRIES)
  @ValidateNested({ each: true })
  @Type(() => AllowlistEntryInputDto)
  entries: AllowlistEntryInputDto[];
}

export class PatchAllowlistDto {
  @ApiProperty({ type: [AllowlistEntryInputDto], required: false, maxItems: MAX_ALLOWLIST_ENTRIES })
  @IsOptionalNotNull()
  @IsArray()
  @ArrayMaxSize(MAX_ALLOWLIST_ENTRIES)
  @ValidateNested({ each: true })
  @Type(() => AllowlistEntryInputDto)
  add?: AllowlistEntryInputDto[];

  @ApiProperty({ type: [String], required: false, maxItems: MAX_ALLOWLIST_ENTRIES, description: 'CIDRs to remove' })
  @IsOptionalNotNull()
  @IsArray()
  @ArrayMaxSize(MAX_ALLOWLIST_ENTRIES)
  @IsString({ each: true })
  @MaxLength(64, { each: true })
  remove?: string[];
}

export function toAllowlistEntryDto(row: AllowlistEntryRow): AllowlistEntryDto {
  return { cidr: row.cidr, description: row.description, created_at: row.createdAt.toISOString() };
}
