import { ApiProperty } from '@nestjs/swagger';

export class ErrorDto {
  @ApiProperty({ example: 'not_found' }) code: string;
  @ApiProperty() message: string;
  @ApiProperty() request_id: string;
  @ApiProperty({ required: false, description: 'Per-field problems for 400s, retry hints for 429s' }) details?: unknown;
}
