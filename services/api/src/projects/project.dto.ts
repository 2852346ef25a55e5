import { ApiProperty } from '@nestjs/swagger';
import { IsEmail, IsIn, IsString, Matches, MaxLength, MinLength } from 'class-validator';

export const PROJECT_ROLES = ['owner', 'member', 'viewer'] as const;
export type ProjectRoleName = (typeof PROJECT_ROLES)[number];

export class ProjectDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ enum: PROJECT_ROLES, description: "The caller's role in this project" }) role: ProjectRoleName;
  @ApiProperty({ format: 'date-time' }) created_at: string;
}

export class ProjectListDto {
  @ApiProperty({ type: [ProjectDto] }) items: ProjectDto[];
}

export class CreateProjectDto {
  @ApiProperty({ minLength: 1, maxLength: 100, example: 'analytics' })
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  @Matches(/\S/, { message: 'name must not be blank' })
  name: string;
}

export class UpdateProjectDto extends CreateProjectDto {}

export class MemberDto {
  @ApiProperty({ format: 'uuid' }) user_id: string;
  @ApiProperty() email: string;
  @ApiProperty() name: string;
  @ApiProperty({ enum: PROJECT_ROLES }) role: ProjectRoleName;
  @ApiProperty({ format: 'date-time' }) created_at: string;
}

export class MemberListDto {
  @ApiProperty({ type: [MemberDto] }) items: MemberDto[];
}

export class AddMemberDto {
  @ApiProperty({ description: 'E-mail of an existing user' })
  @IsEmail()
  @MaxLength(254)
  email: string;

  @ApiProperty({ enum: PROJECT_ROLES })
  @IsIn(PROJECT_ROLES)
  role: ProjectRoleName;
}

export class UpdateMemberDto {
  @ApiProperty({ enum: PROJECT_ROLES })
  @IsIn(PROJECT_ROLES)
  role: ProjectRoleName;
}

export function toProjectDto(row: { id: string; name: string; role: ProjectRoleName; createdAt: Date }): ProjectDto {
  return { id: row.id, name: row.name, role: row.role, created_at: row.createdAt.toISOString() };
}

export function toMemberDto(row: { userId: string; email: string; name: string; role: ProjectRoleName; createdAt: Date }): MemberDto {
  return { user_id: row.userId, email: row.email, name: row.name, role: row.role, created_at: row.createdAt.toISOString() };
}
