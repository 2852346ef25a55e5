// Backups and restores through the API (issue 44): what the API records (the backup row, its
// `backup` operation and job, an instance's backup settings) and every refusal it decides alone.
// The real worker makes the instance running, in error and deleted, and runs each backup job;
// it has no object store, so it fails every backup ("backups are off on this worker"), which
// proves the job ran. What needs a succeeded backup or archive progress (a restore from one,
// too_small, a point inside or outside the window, the window's span) is checked end to end
// with a real object store: e2e/provisioning/backup-restore.test.ts.
import { execFileSync } from 'node:child_process';
import nodePath from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type RunningApi } from './support/api-process.js';
import { type Caller, createBody, loginAdmin, newUser, query } from './support/clients.js';
import { startWithRunningInstance, type RealWorker } from './support/worker-process.js';

const MISSING = '00000000-0000-4000-8000-000000000000';
const BACKUPS_OFF = 'backups are off on this worker';

let api: RunningApi;
let admin: Caller;
let project: string;
/** Started by the first test, once it has seen an instance still `creating`. */
let worker: RealWorker | undefined;
/** Made running by the worker; in error, then deleted, by the tests below in order. */
let source: { project: string; instance: string };
/** Created with backup settings of its own; still creating when the first test looks at it. */
let configured: { project: string; instance: string };
/** A viewer of the admin's project, and a user who is no member of it. */
let viewer: Caller;
let stranger: Caller;
/** The backups taken of `source`, oldest first: each failed by the worker. */
const taken: string[] = [];

async function newViewer(): Promise<Caller> {
  const user = await newUser(api, admin);
  const added = await admin.client.POST('/v1/projects/{project}/members', { params: { path: { project } }, body: { email: user.email, role: 'viewer' } });
  expect(added.response.status).toBe(201);
  return user;
}

beforeAll(async () => {
  api = await startApi();
  admin = await loginAdmin(api);
  project = admin.defaultProjectId;
  [viewer, stranger] = await Promise.all([newViewer(), newUser(api, admin)]);
});
afterAll(async () => {
  await worker?.stop();
  await api?.stop();
}, 240_000);

const backupNow = (path: { project: string; instance: string }, headers: Record<string, string> = {}) =>
  admin.client.POST('/v1/projects/{project}/instances/{instance}/backups', { params: { path }, headers });
const listBackups = (path: { project: string; instance: string }) => admin.client.GET('/v1/projects/{project}/instances/{instance}/backups', { params: { path } });
const getBackup = (caller: Caller, backup: string, inProject = project) => caller.client.GET('/v1/projects/{project}/backups/{backup}', { params: { path: { project: inProject, backup } } });
const deleteBackup = (caller: Caller, backup: string) => caller.client.DELETE('/v1/projects/{project}/backups/{backup}', { params: { path: { project, backup } } });
const getInstance = (path: { project: string; instance: string }) => admin.client.GET('/v1/projects/{project}/instances/{instance}', { params: { path } });
const createRestored = (name: string, restore_from: unknown) =>
  admin.client.POST('/v1/projects/{project}/instances', { params: { path: { project } }, body: createBody(name, { restore_from }) as never });
const jobOf = async (operationId: string) => (await query(api, `SELECT name, data FROM pgboss.job WHERE data->>'operation_id' = $1`, [operationId]))[0];

/** Waits for the worker to run the backup's job; with no object store it fails it, saying so. */
async function expectFailedByWorker(backupId: string, operationId: string) {
  const done = await worker!.waitForOperation(operationId);
  expect(done.status).toBe('failed');
  expect(JSON.stringify(done.error)).toContain(BACKUPS_OFF);
  const failed = await getBackup(admin, backupId);
  expect(failed.data).toMatchObject({ status: 'failed', finished_at: expect.any(String), end_time: null, error: { message: expect.stringContaining(BACKUPS_OFF) } });
}

describe('a new instance', () => {
  it('takes its backup settings on create (03:00-04:00 and 7 days unless given), and no backup while creating', { timeout: 240_000 }, async () => {
    const created = await admin.client.POST('/v1/projects/{project}/instances', {
      params: { path: { project } },
      body: createBody('bk-settings', { backup_window: '23:30-00:30', backup_retention_days: 0 }) as never,
    });
    expect(created.response.status, JSON.stringify(created.error)).toBe(202);
    expect(created.data!.instance).toMatchObject({ status: 'creating', backup_window: '23:30-00:30', backup_retention_days: 0, restored_from: null });
    configured = { project, instance: created.data!.instance.id };
    // A plain create's job names no restore.
    expect((await jobOf(created.data!.operation!.id)).data).toEqual({ instance_id: configured.instance, operation_id: created.data!.operation!.id });

    // No worker runs yet: it is still creating, with nothing to read a backup from.
    const refused = await backupNow(configured);
    expect(refused.response.status).toBe(409);
    expect(refused.error).toMatchObject({ code: 'invalid_state', message: expect.stringContaining('creating'), request_id: expect.any(String) });
    expect(await query(api, `SELECT id FROM backups WHERE instance_id = $1`, [configured.instance])).toEqual([]);

    ({ worker, path: source } = await startWithRunningInstance(api, admin, 'bk-source'));
    expect((await getInstance(source)).data).toMatchObject({ status: 'running', backup_window: '03:00-04:00', backup_retention_days: 7, restored_from: null });
  });
});

describe('backup settings of an instance', () => {
  it('change by PATCH without an operation', async () => {
    const operations = async () => (await query(api, `SELECT id FROM operations WHERE instance_id = $1`, [source.instance])).length;
    const before = await operations();
    const changed = await admin.client.PATCH('/v1/projects/{project}/instances/{instance}', { params: { path: source }, body: { backup_window: '01:15-03:00', backup_retention_days: 35 } });
    expect(changed.response.status).toBe(202);
    expect(changed.data).toMatchObject({ operation: null, instance: { status: 'running', backup_window: '01:15-03:00', backup_retention_days: 35 } });
    expect(await operations()).toBe(before);
    const listed = await admin.client.GET('/v1/projects/{project}/instances', { params: { path: { project }, query: { name: 'bk-source' } } });
    expect(listed.data!.items[0]).toMatchObject({ backup_window: '01:15-03:00', backup_retention_days: 35 });
  });

  it('refuses windows and retentions outside the rules, and text that would act if evaluated, with the field named', async () => {
    const badWindows = ['03:00-03:30', '24:00-01:00', '3:00-4:00', '03:00-04:00; rm -rf /', '$(reboot)', '03:00-04:00\n', '{{7*7}}', '', 300, null];
    for (const backup_window of badWindows) {
      const created = await admin.client.POST('/v1/projects/{project}/instances', { params: { path: { project } }, body: createBody('bk-never', { backup_window }) as never });
      expect(created.response.status, JSON.stringify(backup_window)).toBe(400);
      expect(created.error!.details).toEqual([expect.objectContaining({ field: 'backup_window' })]);
      const patched = await admin.client.PATCH('/v1/projects/{project}/instances/{instance}', { params: { path: configured }, body: { backup_window } as never });
      expect(patched.response.status, JSON.stringify(backup_window)).toBe(400);
    }
    for (const backup_retention_days of [-1, 36, 2.5, '7', '7; DROP TABLE backups', null]) {
      const created = await admin.client.POST('/v1/projects/{project}/instances', { params: { path: { project } }, body: createBody('bk-never', { backup_retention_days }) as never });
      expect(created.response.status, JSON.stringify(backup_retention_days)).toBe(400);
      expect(created.error!.details).toEqual([expect.objectContaining({ field: 'backup_retention_days' })]);
      const patched = await admin.client.PATCH('/v1/projects/{project}/instances/{instance}', { params: { path: configured }, body: { backup_retention_days } as never });
      expect(patched.response.status, JSON.stringify(backup_retention_days)).toBe(400);
    }
    expect(await query(api, `SELECT id FROM instances WHERE name = 'bk-never'`)).toEqual([]);
    const [row] = await query(api, `SELECT backup_window, backup_retention_days FROM instances WHERE id = $1`, [configured.instance]);
    expect(row).toEqual({ backup_window: '23:30-00:30', backup_retention_days: 0 });
  });
});

describe('manual backups', () => {
  it('takes one on a running instance: the pending row, its backup operation and job in one go, audited; the worker runs it', async () => {
    const asked = await backupNow(source, { 'x-request-id': 'req-backup-1', 'idempotency-key': 'backup-once' });
    expect(asked.response.status, JSON.stringify(asked.error)).toBe(202);
    const { backup, operation } = asked.data!;
    expect(backup).toEqual({
      id: expect.any(String),
      instance_id: source.instance,
      kind: 'manual',
      status: 'pending',
      timeline: null,
      end_time: null,
      end_lsn: null,
      size_bytes: 0,
      segments: 0,
      uploaded_bytes: 0,
      created_at: expect.any(String),
      finished_at: null,
      expires_at: null,
      operation_id: operation.id,
      error: null,
    });
    taken.push(backup.id);
    expect(operation).toMatchObject({ type: 'backup', status: 'pending', instance_id: source.instance });
    expect(await jobOf(operation.id)).toEqual({ name: 'instance-backup', data: { backup_id: backup.id, instance_id: source.instance, operation_id: operation.id } });
    const [row] = await query(api, `SELECT created_by, operation_id FROM backups WHERE id = $1`, [backup.id]);
    expect(row).toEqual({ created_by: admin.userId, operation_id: operation.id });
    // A backup owns no status: the instance stays running, pointed at the operation.
    expect((await getInstance(source)).data).toMatchObject({ status: 'running', current_operation_id: operation.id });

    const replay = await backupNow(source, { 'idempotency-key': 'backup-once' });
    expect(replay.response.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.data!.backup.id).toBe(backup.id);
    expect(await query(api, `SELECT id FROM backups WHERE instance_id = $1`, [source.instance])).toHaveLength(1);
    const [audit] = await query(api, `SELECT action, status_code, project_id FROM audit_log WHERE request_id = 'req-backup-1'`);
    expect(audit).toEqual({ action: 'POST /v1/projects/:project/instances/:instance/backups', status_code: 202, project_id: project });

    await expectFailedByWorker(backup.id, operation.id);
    expect((await getInstance(source)).data!.status).toBe('running');
  });

  it('is refused to viewers, outside the project and for unknown instances; viewers may read', async () => {
    expect((await viewer.client.POST('/v1/projects/{project}/instances/{instance}/backups', { params: { path: source } })).response.status).toBe(403);
    expect((await viewer.client.GET('/v1/projects/{project}/instances/{instance}/backups', { params: { path: source } })).response.status).toBe(200);
    expect((await viewer.client.GET('/v1/projects/{project}/instances/{instance}/restore-window', { params: { path: source } })).response.status).toBe(200);
    expect((await stranger.client.POST('/v1/projects/{project}/instances/{instance}/backups', { params: { path: source } })).response.status).toBe(404);
    expect((await stranger.client.GET('/v1/projects/{project}/instances/{instance}/backups', { params: { path: source } })).response.status).toBe(404);
    expect((await backupNow({ project, instance: MISSING })).response.status).toBe(404);
    expect((await backupNow({ project, instance: 'not-a-uuid' })).response.status).toBe(400);
    expect(await query(api, `SELECT id FROM backups WHERE instance_id = $1`, [source.instance])).toHaveLength(1);
  });

  it('waits its turn behind an earlier operation, pending: neither deleted nor restored from meanwhile', async () => {
    // A users apply owns no status: the instance stays running and the backup is asked behind it.
    const users = await admin.client.POST('/v1/projects/{project}/instances/{instance}/users', { params: { path: source }, body: { username: 'app', permission: 'read_write' } });
    expect(users.data!.operation).toMatchObject({ type: 'apply_users', status: 'pending' });
    const asked = (await backupNow(source)).data!;
    taken.push(asked.backup.id);

    const refused = await deleteBackup(admin, asked.backup.id);
    expect(refused.response.status).toBe(409);
    expect(refused.error).toMatchObject({ code: 'invalid_state', message: expect.stringContaining('pending') });
    const notReady = await createRestored('bk-never', { backup_id: asked.backup.id });
    expect(notReady.response.status).toBe(409);
    expect(notReady.error).toMatchObject({ code: 'backup_not_ready', message: expect.stringContaining('pending') });
    // The premise: the users apply had not finished, so the backup had not been run yet.
    expect((await admin.client.GET('/v1/operations/{id}', { params: { path: { id: users.data!.operation!.id } } })).data!.status).toMatch(/^(pending|running)$/);

    expect((await worker!.waitForOperation(users.data!.operation!.id)).status).toBe('succeeded');
    await expectFailedByWorker(asked.backup.id, asked.operation.id);
  });

  it('is refused while a resize runs, and taken once it failed and left the instance in error', async () => {
    // The resize cannot write the engine's new config: its process VM's file is immutable.
    const [node] = await query(api, `SELECT nodes->0->>'data_dir' AS data_dir FROM instances WHERE id = $1`, [source.instance]);
    const configFile = nodePath.join(nodePath.dirname(node.data_dir), 'etc', 'basalt.toml');
    execFileSync('chattr', ['+i', configFile]);
    try {
      const resize = await admin.client.PATCH('/v1/projects/{project}/instances/{instance}', { params: { path: source }, body: { parameters: { timeout: 300 } } });
      expect(resize.data!.instance.status).toBe('modifying');
      const refused = await backupNow(source);
      expect(refused.response.status).toBe(409);
      expect(refused.error).toMatchObject({ code: 'invalid_state', message: expect.stringContaining('modifying') });
      expect((await worker!.waitForOperation(resize.data!.operation!.id)).status).toBe('failed');
      expect((await getInstance(source)).data).toMatchObject({ status: 'error', fault: { step: 'ansible', message: expect.stringContaining('basalt.toml') } });

      // In error the engine usually still serves: a backup before trying again is allowed.
      const asked = await backupNow(source);
      expect(asked.response.status, JSON.stringify(asked.error)).toBe(202);
      taken.push(asked.data!.backup.id);
      await expectFailedByWorker(asked.data!.backup.id, asked.data!.operation.id);
    } finally {
      execFileSync('chattr', ['-i', configFile]);
    }
  });
});

describe('listing, reading and deleting backups', () => {
  it('lists newest first; gets one; 404 for unknown ones and other projects', async () => {
    const listed = await listBackups(source);
    expect(listed.data!.items.map((b) => [b.id, b.status])).toEqual([...taken].reverse().map((id) => [id, 'failed']));
    const one = await getBackup(admin, taken[0]!);
    expect(one.data).toEqual(listed.data!.items[2]);
    expect((await getBackup(viewer, taken[0]!)).response.status).toBe(200);

    expect((await listBackups({ project, instance: MISSING })).response.status).toBe(404);
    expect((await getBackup(admin, MISSING)).response.status).toBe(404);
    expect((await getBackup(stranger, taken[0]!, stranger.defaultProjectId)).response.status).toBe(404);
    expect((await getBackup(stranger, taken[0]!)).response.status).toBe(404);
  });

  it('deletes a finished one (deleting until the worker removes it), not for viewers', async () => {
    const failed = taken[0]!;
    expect((await deleteBackup(viewer, failed)).response.status).toBe(403);
    const deleted = await deleteBackup(admin, failed);
    expect(deleted.response.status).toBe(202);
    expect(deleted.data).toMatchObject({ id: failed, status: 'deleting' });
    const [row] = await query(api, `SELECT status FROM backups WHERE id = $1`, [failed]);
    expect(row.status).toBe('deleting');
    // Asking again is no error: it is already going.
    const again = await deleteBackup(admin, failed);
    expect(again.response.status).toBe(202);
    expect(again.data!.status).toBe('deleting');
    expect((await deleteBackup(admin, MISSING)).response.status).toBe(404);
  });
});

describe('restoring into a new instance', () => {
  it('has an empty window and nothing to restore without a succeeded backup', async () => {
    expect((await admin.client.GET('/v1/projects/{project}/instances/{instance}/restore-window', { params: { path: source } })).data).toEqual({
      earliest: null,
      latest: null,
      archive_lag_seconds: null,
      last_backup_at: null,
      timelines: [],
      gaps: [],
    });
    expect((await admin.client.GET('/v1/projects/{project}/instances/{instance}/restore-window', { params: { path: { project, instance: MISSING } } })).response.status).toBe(404);

    const failed = await createRestored('bk-never', { backup_id: taken[1]! });
    expect(failed.response.status).toBe(409);
    expect(failed.error).toMatchObject({ code: 'backup_not_ready', message: expect.stringContaining('failed') });
    const at = new Date(Date.now() - 30_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const none = await createRestored('bk-never', { source_instance_id: source.instance, point_in_time: at });
    expect(none.response.status).toBe(409);
    expect(none.error!.code).toBe('point_outside_window');
    expect(await query(api, `SELECT id FROM instances WHERE name = 'bk-never'`)).toEqual([]);
  });

  it('refuses backups and sources that are unknown or of another project', async () => {
    const missing = await createRestored('bk-never', { backup_id: MISSING });
    expect(missing.response.status).toBe(404);
    expect(missing.error!.code).toBe('not_found');
    const at = new Date(Date.now() - 30_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    expect((await createRestored('bk-never', { source_instance_id: MISSING, point_in_time: at })).response.status).toBe(404);
    for (const restore_from of [{ backup_id: taken[1]! }, { source_instance_id: source.instance, point_in_time: at }]) {
      const theirs = await stranger.client.POST('/v1/projects/{project}/instances', {
        params: { path: { project: stranger.defaultProjectId } },
        body: createBody('bk-never', { restore_from }) as never,
      });
      expect(theirs.response.status, JSON.stringify(restore_from)).toBe(404);
    }
    expect(await query(api, `SELECT id FROM instances WHERE name = 'bk-never'`)).toEqual([]);
  });

  it('refuses anything but exactly one source, and points that are not RFC 3339 to the second, never evaluating them', async () => {
    const backupId = taken[1]!;
    const at = new Date(Date.now() - 30_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const shapes: [unknown, string][] = [
      [{}, 'restore_from'],
      [{ source_instance_id: source.instance }, 'restore_from'],
      [{ point_in_time: at }, 'restore_from'],
      [{ backup_id: backupId, source_instance_id: source.instance, point_in_time: at }, 'restore_from'],
      [{ backup_id: backupId, point_in_time: at }, 'restore_from'],
      [{ backup_id: 'latest' }, 'restore_from.backup_id'],
      [{ backup_id: backupId, extra: 1 }, 'restore_from.extra'],
      [{ source_instance_id: source.instance, point_in_time: '{{7*7}}' }, 'restore_from.point_in_time'],
      [{ source_instance_id: source.instance, point_in_time: '${7*7}' }, 'restore_from.point_in_time'],
      [{ source_instance_id: source.instance, point_in_time: `${at}; rm -rf /` }, 'restore_from.point_in_time'],
      [{ source_instance_id: source.instance, point_in_time: at.replace('Z', '.500Z') }, 'restore_from.point_in_time'],
      [{ source_instance_id: source.instance, point_in_time: at.replace('Z', '') }, 'restore_from.point_in_time'],
      [{ source_instance_id: source.instance, point_in_time: '2026-02-30T10:00:00Z' }, 'restore_from.point_in_time'],
      [{ source_instance_id: source.instance, point_in_time: 1796300000000 }, 'restore_from.point_in_time'],
      [{ source_instance_id: source.instance, point_in_time: 'now' }, 'restore_from.point_in_time'],
      [{ backup_id: null }, 'restore_from.backup_id'],
      ['latest', 'restore_from'],
    ];
    for (const [restore_from, field] of shapes) {
      const refused = await createRestored('bk-shape', restore_from);
      expect(refused.response.status, JSON.stringify(restore_from)).toBe(400);
      expect(refused.error).toMatchObject({ code: 'invalid_request', request_id: expect.any(String) });
      expect(refused.error!.details, JSON.stringify(restore_from)).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
    }
    expect(await query(api, `SELECT id FROM instances WHERE name = 'bk-shape'`)).toEqual([]);
  });
});

describe('a deleted instance', () => {
  it('keeps its backups listed, and takes no new one', async () => {
    const deleting = await admin.client.DELETE('/v1/projects/{project}/instances/{instance}', { params: { path: source } });
    expect(deleting.response.status, JSON.stringify(deleting.error)).toBe(202);
    expect((await worker!.waitForOperation(deleting.data!.operation!.id)).status).toBe('succeeded');
    expect((await getInstance(source)).data!.status).toBe('deleted');

    expect((await listBackups(source)).data!.items.map((b) => [b.id, b.status])).toEqual([
      [taken[2], 'failed'],
      [taken[1], 'failed'],
      [taken[0], 'deleting'],
    ]);
    const refused = await backupNow(source);
    expect(refused.response.status).toBe(409);
    expect(refused.error).toMatchObject({ code: 'invalid_state', message: expect.stringContaining('deleted') });
  });
});
