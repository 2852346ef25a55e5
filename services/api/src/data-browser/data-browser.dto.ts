// The data browser's requests and answers (issue 46). Every key, field, member, value and
// pattern is data: it reaches the engine as one RESP argument, never inside a command's text.
import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsInt, IsNumber, IsOptional, IsString, Matches, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import {
  DATA_COMMAND_BYTES_MAX,
  DATA_KEY_BYTES_MAX,
  DATA_KEY_TYPES,
  DATA_PAGE_DEFAULT,
  DATA_PAGE_MAX,
  DATA_SCAN_COUNT_DEFAULT,
  DATA_SCAN_COUNT_MAX,
  DATA_VALUE_BYTES_MAX,
  type DataKeyType,
} from '@basalt/api-client/rules';
import { IsOptionalNotNull } from '../common/validators.js';

const CURSOR = /^[0-9]{1,20}$/;
/** A stream entry id, or `(id` to start after it (XRANGE's exclusive start). */
const STREAM_CURSOR = /^\(?[0-9]{1,20}-[0-9]{1,20}$/;

export class ShownTextDto {
  @ApiProperty({ description: 'UTF-8 text, or (binary) the bytes escaped as redis-cli shows them' }) text: string;
  @ApiProperty({ description: 'The true length in bytes' }) length: number;
  @ApiProperty({ description: 'Only the first bytes are in text' }) truncated: boolean;
  @ApiProperty({ description: 'Not UTF-8: text is escaped (\\xHH) and cannot be edited here' }) binary: boolean;
}

export class DataAccessDto {
  @ApiProperty() username: string;
  @ApiProperty({ enum: ['read_only', 'read_write', 'admin'] }) permission: 'read_only' | 'read_write' | 'admin';
  @ApiProperty({ description: "The user's rules refuse writes: the browser offers no edit (and the engine refuses any)" }) read_only: boolean;
  @ApiProperty({ description: 'Keys in the database (DBSIZE)' }) key_count: number;
}

export class DataKeysQuery {
  @ApiProperty({ required: false, default: '0', description: 'SCAN cursor from the previous page; 0 starts over' })
  @IsOptional()
  @Matches(CURSOR, { message: 'cursor must be the number a previous page returned' })
  cursor?: string;

  @ApiProperty({ required: false, maxLength: DATA_KEY_BYTES_MAX, description: 'SCAN MATCH glob, e.g. user:*' })
  @IsOptional()
  @IsString()
  @MaxLength(DATA_KEY_BYTES_MAX)
  match?: string;

  @ApiProperty({ required: false, enum: DATA_KEY_TYPES, description: 'SCAN TYPE' })
  @IsOptional()
  @IsIn(DATA_KEY_TYPES)
  type?: DataKeyType;

  @ApiProperty({ required: false, minimum: 1, maximum: DATA_SCAN_COUNT_MAX, default: DATA_SCAN_COUNT_DEFAULT })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(DATA_SCAN_COUNT_MAX)
  count?: number;
}

export class DataKeyDto {
  @ApiProperty({ type: ShownTextDto }) key: ShownTextDto;
  @ApiProperty({ description: 'TYPE: string, hash, list, set, zset, stream, or none (gone since the scan)' }) type: string;
  @ApiProperty({ nullable: true, type: Number, description: 'Milliseconds to live (PTTL); null: no expiry' }) ttl_ms: number | null;
}

export class DataKeysDto {
  @ApiProperty({ type: [DataKeyDto] }) items: DataKeyDto[];
  @ApiProperty({ description: 'Pass as cursor for the next page; 0: the scan is complete' }) cursor: string;
}

export class DataKeyQuery {
  @ApiProperty({ maxLength: DATA_KEY_BYTES_MAX })
  @IsString()
  @MaxLength(DATA_KEY_BYTES_MAX)
  key: string;

  @ApiProperty({
    required: false,
    description: "Where the page starts: HSCAN/SSCAN cursor (hash, set), element offset (list, sorted set), entry id or '(id' (stream); from next_cursor",
  })
  @IsOptional()
  @Matches(new RegExp(`${CURSOR.source}|${STREAM_CURSOR.source}`), { message: 'cursor must be what next_cursor returned' })
  cursor?: string;

  @ApiProperty({ required: false, minimum: 1, maximum: DATA_PAGE_MAX, default: DATA_PAGE_DEFAULT })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(DATA_PAGE_MAX)
  count?: number;
}

export class DataFieldDto {
  @ApiProperty({ type: ShownTextDto }) field: ShownTextDto;
  @ApiProperty({ type: ShownTextDto }) value: ShownTextDto;
}

export class DataElementDto {
  @ApiProperty({ type: ShownTextDto }) value: ShownTextDto;
  @ApiProperty({ required: false, description: 'Lists: the index' }) index?: number;
  @ApiProperty({ required: false, description: 'Sorted sets: the score, as the engine prints it' }) score?: string;
}

export class DataStreamEntryDto {
  @ApiProperty() id: string;
  @ApiProperty({ type: [DataFieldDto] }) fields: DataFieldDto[];
}

export class DataValueDto {
  @ApiProperty({ type: ShownTextDto }) key: ShownTextDto;
  @ApiProperty({ enum: DATA_KEY_TYPES }) type: DataKeyType;
  @ApiProperty({ nullable: true, type: Number, description: 'Milliseconds to live (PTTL); null: no expiry' }) ttl_ms: number | null;
  @ApiProperty({ nullable: true, type: Number, description: 'MEMORY USAGE in bytes; null when the user may not ask' }) memory_bytes: number | null;
  @ApiProperty({ description: 'Bytes of a string; fields, elements, members or entries of the others' }) length: number;
  @ApiProperty({ required: false, type: ShownTextDto, description: 'Strings' }) string?: ShownTextDto;
  @ApiProperty({ required: false, type: [DataFieldDto], description: 'Hashes: this page of fields' }) fields?: DataFieldDto[];
  @ApiProperty({ required: false, type: [DataElementDto], description: 'Lists, sets, sorted sets: this page' }) elements?: DataElementDto[];
  @ApiProperty({ required: false, type: [DataStreamEntryDto], description: 'Streams: this page of entries' }) entries?: DataStreamEntryDto[];
  @ApiProperty({ nullable: true, type: String, description: 'Pass as cursor for the next page; null: this is the last' }) next_cursor: string | null;
}

export const DATA_EDIT_OPS = ['set', 'hset', 'hdel', 'lset', 'rpush', 'lrem', 'sadd', 'srem', 'zadd', 'zrem', 'xadd', 'xdel'] as const;
export type DataEditOp = (typeof DATA_EDIT_OPS)[number];

export class DataFieldInputDto {
  @ApiProperty({ maxLength: DATA_KEY_BYTES_MAX }) @IsString() @MaxLength(DATA_KEY_BYTES_MAX) field: string;
  @ApiProperty({ maxLength: DATA_VALUE_BYTES_MAX }) @IsString() @MaxLength(DATA_VALUE_BYTES_MAX) value: string;
}

export class DataEditDto {
  @ApiProperty({ maxLength: DATA_KEY_BYTES_MAX }) @IsString() @MaxLength(DATA_KEY_BYTES_MAX) key: string;

  @ApiProperty({
    enum: DATA_EDIT_OPS,
    description:
      'set {value}: SET, keeping the TTL; hset {field, value}; hdel {field}; lset {index, value}; rpush {value}; lrem {value}: the first equal element; ' +
      'sadd/srem {member}; zadd {member, score}: adds or changes the score; zrem {member}; xadd {fields}: a new entry (*); xdel {id}',
  })
  @IsIn(DATA_EDIT_OPS)
  op: DataEditOp;

  @ApiProperty({ required: false, maxLength: DATA_KEY_BYTES_MAX }) @IsOptionalNotNull() @IsString() @MaxLength(DATA_KEY_BYTES_MAX) field?: string;
  @ApiProperty({ required: false, maxLength: DATA_VALUE_BYTES_MAX }) @IsOptionalNotNull() @IsString() @MaxLength(DATA_VALUE_BYTES_MAX) value?: string;
  @ApiProperty({ required: false, maxLength: DATA_KEY_BYTES_MAX }) @IsOptionalNotNull() @IsString() @MaxLength(DATA_KEY_BYTES_MAX) member?: string;
  @ApiProperty({ required: false, description: 'Sorted sets: the score (finite)' }) @IsOptionalNotNull() @IsNumber({ allowNaN: false, allowInfinity: false }) score?: number;
  @ApiProperty({ required: false, description: 'Lists: the index (negative from the end)' }) @IsOptionalNotNull() @IsInt() index?: number;
  @ApiProperty({ required: false, example: '1700000000000-0' }) @IsOptionalNotNull() @Matches(/^[0-9]{1,20}-[0-9]{1,20}$/) id?: string;

  @ApiProperty({ required: false, type: [DataFieldInputDto], maxItems: 100 })
  @IsOptionalNotNull()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @ValidateNested({ each: true })
  @Type(() => DataFieldInputDto)
  fields?: DataFieldInputDto[];
}

export class DataTtlDto {
  @ApiProperty({ maxLength: DATA_KEY_BYTES_MAX }) @IsString() @MaxLength(DATA_KEY_BYTES_MAX) key: string;

  @ApiProperty({ nullable: true, type: Number, minimum: 1, maximum: 10 * 365 * 86400, description: 'Seconds to live (EXPIRE); null removes the expiry (PERSIST)' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(10 * 365 * 86400)
  ttl_seconds: number | null;
}

export class DataKeyDeleteQuery {
  @ApiProperty({ maxLength: DATA_KEY_BYTES_MAX }) @IsString() @MaxLength(DATA_KEY_BYTES_MAX) key: string;
}

export class DataCommandDto {
  @ApiProperty({
    maxLength: DATA_COMMAND_BYTES_MAX,
    example: 'HSET "user:1" name "Ada Lovelace"',
    description: "One command, split into arguments as redis-cli splits a line (quotes, \\xHH escapes); each argument is sent as data",
  })
  @IsString()
  @MaxLength(DATA_COMMAND_BYTES_MAX)
  command: string;
}

export class DataCommandResultDto {
  @ApiProperty({ description: 'The reply as redis-cli prints it' }) output: string;
  @ApiProperty({ description: 'The engine answered with an error' }) error: boolean;
}
