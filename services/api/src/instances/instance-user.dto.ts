import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Matches } from 'class-validator';
import type { InstanceUserRow } from '@basalt/db';
import { OperationDto } from '../operations/operation.dto.js';
import { DB_PASSWORD, DB_USERNAME } from '@basalt/api-client/rules';

export const PERMISSIONS = ['read_only', 'read_write', 'admin'] as const;
export type PermissionName = (typeof PERMISSIONS)[number];
const passwordMessage = 'password must be 12-128 printable ASCII characters without spaces, quotes or backslashes';

export class InstanceUserDto {
  @ApiProperty({ example: 'app' }) username: string;
  @ApiProperty({ enum: PERMISSIONS }) permission: PermissionName;
  @ApiProperty({ format: 'date-time', nullable: true, type: String, description: 'Until when the previous password still works (rotation)' })
  old_password_valid_until: string | null;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
}

export class InstanceUserListDto {
  @ApiProperty({ type: [InstanceUserDto] }) items: InstanceUserDto[];
}

export class CreateInstanceUserDto {
  @ApiProperty({ pattern: DB_USERNAME.source })
  @IsString()
  @Matches(DB_USERNAME, { message: 'username must be 1-64 of A-Z a-z 0-9 _ . -' })
  username: string;

  @ApiProperty({ required: false, minLength: 12, maxLength: 128, format: 'password', description: 'Generated and returned once when absent' })
  @IsOptional()
  @IsString()
  @Matches(DB_PASSWORD, { message: passwordMessage })
  password?: string;

  @ApiProperty({ enum: PERMISSIONS })
  @IsIn(PERMISSIONS)
  permission: PermissionName;
}

export class UpdateInstanceUserDto {
  @ApiProperty({ enum: PERMISSIONS })
  @IsIn(PERMISSIONS)
  permission: PermissionName;
}

export class ResetPasswordDto {
  @ApiProperty({ required: false, minLength: 12, maxLength: 128, format: 'password', description: 'Generated when absent' })
  @IsOptional()
  @IsString()
  @Matches(DB_PASSWORD, { message: passwordMessage })
  password?: string;
}

export class InstanceUserChangeDto {
  @ApiProperty({ type: InstanceUserDto }) user: InstanceUserDto;
  @ApiProperty({ type: OperationDto, nullable: true, description: 'Applies the change to the running engine' }) operation: OperationDto | null;
}

export class InstanceUserWithPasswordDto extends InstanceUserChangeDto {
  @ApiProperty({ description: 'Shown only in this response' }) password: string;
}

export class InstanceUserDeletedDto {
  @ApiProperty({ type: OperationDto, nullable: true }) operation: OperationDto | null;
}

export function toInstanceUserDto(row: InstanceUserRow): InstanceUserDto {
  const validUntil = row.oldPasswordEncrypted && row.oldPasswordExpiresAt && row.oldPasswordExpiresAt.getTime() > Date.now() ? row.oldPasswordExpiresAt : null;
  return {
    username: row.username,
    permission: row.permission,
    old_password_valid_until: validUntil ? validUntil.toISOString() : null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
