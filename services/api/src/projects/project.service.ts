import { Injectable } from '@nestjs/common';
import { ProjectsRepository, UsersRepository } from '@basalt/db';
import { Conflict, Invalid, NotFound } from '../common/errors.js';
import type { AuthContext } from '../common/request-context.js';
import { ProjectAccess } from './project-access.service.js';
import { type MemberDto, type ProjectDto, type ProjectRoleName, toMemberDto, toProjectDto } from './project.dto.js';

@Injectable()
export class ProjectService {
  constructor(
    private readonly projects: ProjectsRepository,
    private readonly users: UsersRepository,
    private readonly access: ProjectAccess,
  ) {}

  async list(auth: AuthContext): Promise<ProjectDto[]> {
    return (await this.projects.listForUser(auth.user.id)).map(toProjectDto);
  }

  async create(auth: AuthContext, name: string): Promise<ProjectDto> {
    return toProjectDto(await this.projects.create(name.trim(), auth.user.id));
  }

  async get(auth: AuthContext, projectId: string): Promise<ProjectDto> {
    return toProjectDto(await this.access.require(auth, projectId));
  }

  async rename(auth: AuthContext, projectId: string, name: string): Promise<ProjectDto> {
    const project = await this.access.require(auth, projectId, 'owner');
    await this.projects.rename(projectId, name.trim());
    this.access.forget(projectId);
    return toProjectDto({ ...project, name: name.trim() });
  }

  async members(auth: AuthContext, projectId: string): Promise<MemberDto[]> {
    await this.access.require(auth, projectId);
    return (await this.projects.listMembers(projectId)).map(toMemberDto);
  }

  async addMember(auth: AuthContext, projectId: string, email: string, role: ProjectRoleName): Promise<MemberDto> {
    await this.access.require(auth, projectId, 'owner');
    const user = await this.users.findByEmail(email);
    if (!user) throw new NotFound('User');
    if (await this.projects.getMember(projectId, user.id)) throw new Conflict(`${user.email} is already a member`, 'already_member');
    await this.projects.setMember(projectId, user.id, role);
    this.access.forget(projectId);
    return toMemberDto((await this.projects.getMember(projectId, user.id))!);
  }

  async updateMember(auth: AuthContext, projectId: string, userId: string, role: ProjectRoleName): Promise<MemberDto> {
    await this.access.require(auth, projectId, 'owner');
    const member = await this.projects.getMember(projectId, userId);
    if (!member) throw new NotFound('Member');
    if (member.role === 'owner' && role !== 'owner') await this.assertAnotherOwner(projectId, userId);
    await this.projects.setMember(projectId, userId, role);
    this.access.forget(projectId);
    return toMemberDto({ ...member, role });
  }

  async removeMember(auth: AuthContext, projectId: string, userId: string): Promise<void> {
    await this.access.require(auth, projectId, userId === auth.user.id ? 'viewer' : 'owner');
    const member = await this.projects.getMember(projectId, userId);
    if (!member) throw new NotFound('Member');
    if (member.role === 'owner') await this.assertAnotherOwner(projectId, userId);
    await this.projects.removeMember(projectId, userId);
    this.access.forget(projectId);
  }

  private async assertAnotherOwner(projectId: string, userId: string): Promise<void> {
    const owners = (await this.projects.listMembers(projectId)).filter((m) => m.role === 'owner' && m.userId !== userId);
    if (!owners.length) throw new Invalid('A project keeps at least one owner', undefined, 'last_owner');
  }
}
