import { ApiProperty } from '@nestjs/swagger';
import { IsDateString, IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import type { ApiKeyRow } from '@basalt/db';

export class CreateApiKeyDto {
  @ApiProperty({ minLength: 1, maxLength: 100, example: 'terraform' })
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  @Matches(/\S/, { message: 'name must not be blank' })
  name: string;

  @ApiProperty({
    required: false,
    format: 'date-time',
    description: 'When the key stops working; never when absent. Asked with an API key that expires, required and no later than that key (400 otherwise)',
  })
  @IsOptional()
  @IsDateString({ strict: true })
  expires_at?: string;
}

export class ApiKeyDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ description: 'First characters of the key, to recognise it' }) prefix: string;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) last_used_at: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) expires_at: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) revoked_at: string | null;
  @ApiProperty({ format: 'uuid', nullable: true, type: String, description: 'The API key this key was made with (null when made from a session); revoking that key revokes this one' })
  parent_id: string | null;
}

export class CreatedApiKeyDto {
  @ApiProperty({ type: ApiKeyDto }) api_key: ApiKeyDto;
  @ApiProperty({ description: 'The secret; shown only in this response. Send as `Authorization: Bearer <key>`.' }) key: string;
}

export class ApiKeyListDto {
  @ApiProperty({ type: [ApiKeyDto] }) items: ApiKeyDto[];
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toApiKeyDto(row: ApiKeyRow): ApiKeyDto {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    created_at: row.createdAt.toISOString(),
    last_used_at: iso(row.lastUsedAt),
    expires_at: iso(row.expiresAt),
    revoked_at: iso(row.revokedAt),
    parent_id: row.parentId,
  };
}
