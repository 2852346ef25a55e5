// Administrators create control-plane users; each starts with a default project.
import { Body, Controller, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { IsBoolean, IsEmail, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { UsersRepository } from '@basalt/db';
import { Auth } from '../common/decorators.js';
import type { AuthContext } from '../common/request-context.js';
import { ApiErrors } from '../common/api-errors.js';
import { Idempotent } from '../common/idempotent.decorator.js';
import { Conflict, Forbidden, isUniqueViolation } from '../common/errors.js';
import { UserDto } from '../auth/auth.dto.js';
import { AuthService, toUserDto } from '../auth/auth.service.js';

export class CreateUserDto {
  @ApiProperty({ maxLength: 254 }) @IsEmail() @MaxLength(254) email: string;
  @ApiProperty({ minLength: 8, maxLength: 1024, format: 'password' }) @IsString() @MinLength(8) @MaxLength(1024) password: string;
  @ApiProperty({ required: false, maxLength: 100 }) @IsOptional() @IsString() @MaxLength(100) name?: string;
  @ApiProperty({ required: false, default: false }) @IsOptional() @IsBoolean() is_admin?: boolean;
}

const duplicateEmail = () => new Conflict('A user with this e-mail exists', 'duplicate_email');

@ApiTags('users')
@Controller('users')
export class UserController {
  constructor(
    private readonly auth: AuthService,
    private readonly users: UsersRepository,
  ) {}

  @Post()
  @Idempotent('admin')
  @ApiOperation({ operationId: 'createUser', summary: 'Create a user with a default project (administrators)' })
  @ApiCreatedResponse({ type: UserDto })
  @ApiErrors(400, 401, 403, 409, 429)
  async create(@Auth() caller: AuthContext, @Body() body: CreateUserDto): Promise<UserDto> {
    if (!caller.user.isAdmin) throw new Forbidden('Only administrators create users');
    if (await this.users.findByEmail(body.email)) throw duplicateEmail();
    try {
      const user = await this.auth.createUser({ email: body.email, name: body.name ?? '', password: body.password, isAdmin: body.is_admin ?? false });
      return toUserDto(user);
    } catch (error) {
      // Two requests for one e-mail can both pass the check above; the unique index decides.
      if (isUniqueViolation(error)) throw duplicateEmail();
      throw error;
    }
  }
}
