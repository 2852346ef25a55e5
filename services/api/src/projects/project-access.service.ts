// Resolves a project for the caller: 404 when they are not a member (another project's resources
// do not exist for them), 403 when their role is too low for the action.
import { Injectable } from '@nestjs/common';
import { ProjectsRepository, type ProjectWithRole } from '@basalt/db';
import { Forbidden, NotFound } from '../common/errors.js';
import type { AuthContext } from '../common/request-context.js';
import type { ProjectRoleName } from './project.dto.js';
import { ApiConfig } from '../config.js';
import { TtlCache } from '../common/ttl-cache.js';

const RANK: Record<ProjectRoleName, number> = { viewer: 0, member: 1, owner: 2 };

@Injectable()
export class ProjectAccess {
  private readonly memberships: TtlCache<ProjectWithRole | undefined>;

  constructor(
    private readonly projects: ProjectsRepository,
    config: ApiConfig,
  ) {
    this.memberships = new TtlCache(config.authCacheMs);
  }

  /** Call after changing a project's name or members. */
  forget(projectId: string): void {
    this.memberships.deletePrefix(`${projectId}:`);
  }

  async require(auth: AuthContext, projectId: string, minimum: ProjectRoleName = 'viewer'): Promise<ProjectWithRole> {
    const project = await this.membership(auth, projectId);
    if (!project) throw new NotFound('Project');
    if (RANK[project.role] < RANK[minimum]) throw new Forbidden(`This needs the ${minimum} role in the project; you are ${project.role}`);
    return project;
  }

  /** Whether the caller belongs to the project (any role). */
  async isMember(auth: AuthContext, projectId: string): Promise<boolean> {
    return (await this.membership(auth, projectId)) !== undefined;
  }

  private membership(auth: AuthContext, projectId: string): Promise<ProjectWithRole | undefined> {
    return this.memberships.get(`${projectId}:${auth.user.id}`, () => this.projects.getForUser(projectId, auth.user.id));
  }

  /** Ids of every project the caller belongs to. */
  async projectIds(auth: AuthContext): Promise<string[]> {
    return (await this.projects.listForUser(auth.user.id)).map((p) => p.id);
  }
}
