import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth } from '../common/decorators.js';
import type { AuthContext } from '../common/request-context.js';
import { ApiErrors } from '../common/api-errors.js';
import { Idempotent } from '../common/idempotent.decorator.js';
import { ProjectMemberParams, ProjectParams } from '../common/params.js';
import {
  AddMemberDto,
  CreateProjectDto,
  MemberDto,
  MemberListDto,
  ProjectDto,
  ProjectListDto,
  UpdateMemberDto,
  UpdateProjectDto,
} from './project.dto.js';
import { ProjectService } from './project.service.js';

@ApiTags('projects')
@Controller('projects')
export class ProjectController {
  constructor(private readonly service: ProjectService) {}

  @Get()
  @ApiOperation({ operationId: 'listProjects', summary: "The caller's projects" })
  @ApiOkResponse({ type: ProjectListDto })
  @ApiErrors(401)
  async list(@Auth() auth: AuthContext): Promise<ProjectListDto> {
    return { items: await this.service.list(auth) };
  }

  @Post()
  @Idempotent('caller')
  @ApiOperation({ operationId: 'createProject', summary: 'Create a project; the caller becomes its owner' })
  @ApiCreatedResponse({ type: ProjectDto })
  @ApiErrors(400, 401, 409, 429)
  create(@Auth() auth: AuthContext, @Body() body: CreateProjectDto): Promise<ProjectDto> {
    return this.service.create(auth, body.name);
  }

  @Get(':project')
  @ApiOperation({ operationId: 'getProject' })
  @ApiOkResponse({ type: ProjectDto })
  @ApiErrors(400, 401, 404)
  get(@Auth() auth: AuthContext, @Param() params: ProjectParams): Promise<ProjectDto> {
    return this.service.get(auth, params.project);
  }

  @Patch(':project')
  @ApiOperation({ operationId: 'updateProject', summary: 'Rename (owner)' })
  @ApiOkResponse({ type: ProjectDto })
  @ApiErrors(400, 401, 403, 404)
  rename(@Auth() auth: AuthContext, @Param() params: ProjectParams, @Body() body: UpdateProjectDto): Promise<ProjectDto> {
    return this.service.rename(auth, params.project, body.name);
  }

  @Get(':project/members')
  @ApiOperation({ operationId: 'listProjectMembers' })
  @ApiOkResponse({ type: MemberListDto })
  @ApiErrors(400, 401, 404)
  async members(@Auth() auth: AuthContext, @Param() params: ProjectParams): Promise<MemberListDto> {
    return { items: await this.service.members(auth, params.project) };
  }

  @Post(':project/members')
  @Idempotent('owner')
  @ApiOperation({ operationId: 'addProjectMember', summary: 'Add an existing user (owner)' })
  @ApiCreatedResponse({ type: MemberDto })
  @ApiErrors(400, 401, 403, 404, 409)
  addMember(@Auth() auth: AuthContext, @Param() params: ProjectParams, @Body() body: AddMemberDto): Promise<MemberDto> {
    return this.service.addMember(auth, params.project, body.email, body.role);
  }

  @Patch(':project/members/:user')
  @ApiOperation({ operationId: 'updateProjectMember', summary: 'Change a role (owner)' })
  @ApiOkResponse({ type: MemberDto })
  @ApiErrors(400, 401, 403, 404)
  updateMember(@Auth() auth: AuthContext, @Param() params: ProjectMemberParams, @Body() body: UpdateMemberDto): Promise<MemberDto> {
    return this.service.updateMember(auth, params.project, params.user, body.role);
  }

  @Delete(':project/members/:user')
  @HttpCode(204)
  @ApiOperation({ operationId: 'removeProjectMember', summary: 'Remove a member (owner, or yourself)' })
  @ApiNoContentResponse()
  @ApiErrors(400, 401, 403, 404)
  removeMember(@Auth() auth: AuthContext, @Param() params: ProjectMemberParams): Promise<void> {
    return this.service.removeMember(auth, params.project, params.user);
  }
}
