import { ApiProperty } from '@nestjs/swagger';
import { IsEmail, IsString, MaxLength, MinLength } from 'class-validator';
import { ProjectDto } from '../projects/project.dto.js';

export class LoginDto {
  @ApiProperty({ example: 'admin@example.com', maxLength: 254 })
  @IsEmail()
  @MaxLength(254)
  email: string;

  @ApiProperty({ minLength: 1, maxLength: 1024, format: 'password' })
  @IsString()
  @MinLength(1)
  @MaxLength(1024)
  password: string;
}

export class UserDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() email: string;
  @ApiProperty() name: string;
  @ApiProperty() is_admin: boolean;
  @ApiProperty({ format: 'date-time' }) created_at: string;
}

export class MeDto {
  @ApiProperty({ type: UserDto }) user: UserDto;
  @ApiProperty({ type: [ProjectDto] }) projects: ProjectDto[];
  @ApiProperty({ enum: ['session', 'api_key'] }) auth_method: 'session' | 'api_key';
}
