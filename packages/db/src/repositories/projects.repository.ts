// Projects and their members; a user sees a project only through a membership row.
import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../client.js';
import { projectMembers, projects, users } from '../schema.js';

export type ProjectRow = typeof projects.$inferSelect;
export type ProjectRole = (typeof projectMembers.$inferSelect)['role'];
export interface ProjectWithRole extends ProjectRow {
  role: ProjectRole;
}
export interface MemberRow {
  userId: string;
  email: string;
  name: string;
  role: ProjectRole;
  createdAt: Date;
}

export class ProjectsRepository {
  constructor(private readonly db: Db) {}

  async listForUser(userId: string): Promise<ProjectWithRole[]> {
    const rows = await this.db
      .select({ project: projects, role: projectMembers.role })
      .from(projectMembers)
      .innerJoin(projects, eq(projects.id, projectMembers.projectId))
      .where(eq(projectMembers.userId, userId))
      .orderBy(asc(projects.createdAt), asc(projects.id));
    return rows.map((r) => ({ ...r.project, role: r.role }));
  }

  /** The project as seen by this user, or undefined when they are not a member. */
  async getForUser(projectId: string, userId: string): Promise<ProjectWithRole | undefined> {
    const [row] = await this.db
      .select({ project: projects, role: projectMembers.role })
      .from(projectMembers)
      .innerJoin(projects, eq(projects.id, projectMembers.projectId))
      .where(and(eq(projectMembers.projectId, projectId), eq(projectMembers.userId, userId)));
    return row && { ...row.project, role: row.role };
  }

  async create(name: string, ownerId: string): Promise<ProjectWithRole> {
    return this.db.transaction(async (tx) => {
      const [project] = await tx.insert(projects).values({ name, createdBy: ownerId }).returning();
      await tx.insert(projectMembers).values({ projectId: project!.id, userId: ownerId, role: 'owner' });
      return { ...project!, role: 'owner' as const };
    });
  }

  async rename(projectId: string, name: string): Promise<ProjectRow | undefined> {
    const [row] = await this.db.update(projects).set({ name }).where(eq(projects.id, projectId)).returning();
    return row;
  }

  async listMembers(projectId: string): Promise<MemberRow[]> {
    return this.db
      .select({
        userId: projectMembers.userId,
        email: users.email,
        name: users.name,
        role: projectMembers.role,
        createdAt: projectMembers.createdAt,
      })
      .from(projectMembers)
      .innerJoin(users, eq(users.id, projectMembers.userId))
      .where(eq(projectMembers.projectId, projectId))
      .orderBy(asc(projectMembers.createdAt));
  }

  async getMember(projectId: string, userId: string): Promise<MemberRow | undefined> {
    return (await this.listMembers(projectId)).find((m) => m.userId === userId);
  }

  /** Adds or changes a membership. */
  async setMember(projectId: string, userId: string, role: ProjectRole): Promise<void> {
    await this.db
      .insert(projectMembers)
      .values({ projectId, userId, role })
      .onConflictDoUpdate({ target: [projectMembers.projectId, projectMembers.userId], set: { role } });
  }

  async removeMember(projectId: string, userId: string): Promise<boolean> {
    const rows = await this.db
      .delete(projectMembers)
      .where(and(eq(projectMembers.projectId, projectId), eq(projectMembers.userId, userId)))
      .returning();
    return rows.length > 0;
  }
}
