// Projects, members and roles; isolation: another project's resources are 404, a viewer gets 403.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type RunningApi } from './support/api-process.js';
import { type Caller, createBody, loginAdmin, newUser } from './support/clients.js';

let api: RunningApi;
let admin: Caller;
let alice: Caller;
let bob: Caller;

beforeAll(async () => {
  api = await startApi();
  admin = await loginAdmin(api);
  alice = await newUser(api, admin);
  bob = await newUser(api, admin);
});
afterAll(() => api?.stop());

describe('projects', () => {
  it('creates, lists, gets and renames a project', async () => {
    const created = await alice.client.POST('/v1/projects', { body: { name: 'analytics' } });
    expect(created.response.status).toBe(201);
    expect(created.data).toMatchObject({ name: 'analytics', role: 'owner' });
    const list = await alice.client.GET('/v1/projects');
    expect(list.data!.items.map((p) => p.name)).toEqual(['default', 'analytics']);
    const renamed = await alice.client.PATCH('/v1/projects/{project}', { params: { path: { project: created.data!.id } }, body: { name: 'bi' } });
    expect(renamed.data!.name).toBe('bi');
    expect((await alice.client.GET('/v1/projects/{project}', { params: { path: { project: created.data!.id } } })).data!.name).toBe('bi');
  });

  it('rejects blank names and malformed ids with 400', async () => {
    expect((await alice.client.POST('/v1/projects', { body: { name: '   ' } })).response.status).toBe(400);
    const bad = await alice.client.GET('/v1/projects/{project}', { params: { path: { project: 'nope' } } });
    expect(bad.response.status).toBe(400);
    expect(bad.error!.details).toEqual([expect.objectContaining({ field: 'project' })]);
  });

  it("hides other users' projects and their instances (404)", async () => {
    const instance = await alice.client.POST('/v1/projects/{project}/instances', {
      params: { path: { project: alice.defaultProjectId } },
      body: createBody('private-one'),
    });
    expect(instance.response.status).toBe(202);
    const path = { project: alice.defaultProjectId, instance: instance.data!.instance.id };
    expect((await bob.client.GET('/v1/projects/{project}', { params: { path: { project: alice.defaultProjectId } } })).response.status).toBe(404);
    expect((await bob.client.GET('/v1/projects/{project}/instances', { params: { path: { project: alice.defaultProjectId } } })).response.status).toBe(404);
    expect((await bob.client.GET('/v1/projects/{project}/instances/{instance}', { params: { path } })).response.status).toBe(404);
    expect((await bob.client.DELETE('/v1/projects/{project}/instances/{instance}', { params: { path } })).response.status).toBe(404);
    // Bob's own project does not contain Alice's instance either.
    const crossed = await bob.client.GET('/v1/projects/{project}/instances/{instance}', { params: { path: { ...path, project: bob.defaultProjectId } } });
    expect(crossed.response.status).toBe(404);
    const op = await bob.client.GET('/v1/operations/{id}', { params: { path: { id: instance.data!.operation!.id } } });
    expect(op.response.status).toBe(404);
    expect((await bob.client.GET('/v1/projects/{project}/audit-log', { params: { path: { project: alice.defaultProjectId } } })).response.status).toBe(404);
  });
});

describe('members and roles', () => {
  it('adds a viewer who can read but not change (403), then promotes them', async () => {
    const project = (await alice.client.POST('/v1/projects', { body: { name: 'shared' } })).data!;
    const projectPath = { project: project.id };
    const added = await alice.client.POST('/v1/projects/{project}/members', { params: { path: projectPath }, body: { email: bob.email, role: 'viewer' } });
    expect(added.response.status).toBe(201);
    expect(added.data).toMatchObject({ user_id: bob.userId, role: 'viewer' });
    expect((await alice.client.POST('/v1/projects/{project}/members', { params: { path: projectPath }, body: { email: bob.email, role: 'viewer' } })).response.status).toBe(409);

    expect((await bob.client.GET('/v1/projects/{project}/instances', { params: { path: projectPath } })).response.status).toBe(200);
    const denied = await bob.client.POST('/v1/projects/{project}/instances', { params: { path: projectPath }, body: createBody('viewer-try') });
    expect(denied.response.status).toBe(403);
    expect(denied.error!.code).toBe('forbidden');
    expect((await bob.client.POST('/v1/projects/{project}/members', { params: { path: projectPath }, body: { email: admin.email, role: 'owner' } })).response.status).toBe(403);

    const promoted = await alice.client.PATCH('/v1/projects/{project}/members/{user}', { params: { path: { ...projectPath, user: bob.userId } }, body: { role: 'member' } });
    expect(promoted.data!.role).toBe('member');
    expect((await bob.client.POST('/v1/projects/{project}/instances', { params: { path: projectPath }, body: createBody('member-try') })).response.status).toBe(202);

    const members = await alice.client.GET('/v1/projects/{project}/members', { params: { path: projectPath } });
    expect(members.data!.items.map((m) => m.role).sort()).toEqual(['member', 'owner']);
  });

  it('keeps one owner, and lets a member leave', async () => {
    const project = (await alice.client.POST('/v1/projects', { body: { name: 'solo' } })).data!;
    const path = { project: project.id, user: alice.userId };
    const demote = await alice.client.PATCH('/v1/projects/{project}/members/{user}', { params: { path }, body: { role: 'viewer' } });
    expect(demote.response.status).toBe(400);
    expect(demote.error!.code).toBe('last_owner');
    await alice.client.POST('/v1/projects/{project}/members', { params: { path: { project: project.id } }, body: { email: bob.email, role: 'member' } });
    const leave = await bob.client.DELETE('/v1/projects/{project}/members/{user}', { params: { path: { project: project.id, user: bob.userId } } });
    expect(leave.response.status).toBe(204);
    expect((await bob.client.GET('/v1/projects/{project}', { params: { path: { project: project.id } } })).response.status).toBe(404);
    const unknown = await alice.client.POST('/v1/projects/{project}/members', { params: { path: { project: project.id } }, body: { email: 'nobody@example.com', role: 'member' } });
    expect(unknown.response.status).toBe(404);
  });
});
