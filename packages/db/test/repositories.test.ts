// Repositories against a real database: instance text rows (what the API's presenter writes JSON
// from) print every column as PostgreSQL does, and keyset pages of instances and of operations
// have no gaps when many rows share one millisecond (cursors keep microseconds).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, InstancesRepository, OperationsRepository, schema } from '../src/index.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';

let test: TestDatabase;
let database: Database;
let repo: InstancesRepository;
let projectId: string;

beforeAll(async () => {
  test = await createTestDatabase('basalt_repo_test');
  database = test.database;
  projectId = test.projectId;
  repo = new InstancesRepository(database.db);
});

afterAll(async () => {
  await test?.drop();
});

const base = { instanceType: 'kv.standard.small', region: 'local', engineVersion: '1.0', diskGib: 10 };

describe('instance text rows', () => {
  it('print JSON columns as JSON and timestamps as toISOString does', async () => {
    const row = await repo.insert({
      ...base,
      projectId,
      name: 'full',
      tags: { team: 'web' },
      parameters: { fsync: 'always' },
      fault: { code: 'x', message: 'y', step: 'z' },
      endpoints: [{ role: 'primary', type: 'private', host: '10.77.0.2', port: 6379, tls: false, node: 'node-0' }],
      nodes: [
        { name: 'node-0', private_ip: '10.77.0.2', role: 'primary', status: 'running', lag_bytes: null, allocated_ip: '10.77.0.2', public_ip: '10.77.0.2', ssh_user: 'root', data_dir: '/d' },
      ],
    });
    const text = (await repo.getText(projectId, row.id))!;
    expect({
      ...text,
      fault: JSON.parse(text.fault!),
      endpoints: JSON.parse(text.endpoints),
      nodes: JSON.parse(text.nodes),
      tags: JSON.parse(text.tags),
      parameters: JSON.parse(text.parameters),
    }).toEqual({
      id: row.id,
      project_id: projectId,
      name: 'full',
      instance_type: 'kv.standard.small',
      region: 'local',
      engine_version: '1.0',
      disk_gib: 10,
      architecture: 'standalone',
      replicas: 0,
      status: 'creating',
      health: null,
      health_reason: null,
      fault: row.fault,
      // The declared fields only (instance-topology.test.ts).
      endpoints: [{ role: 'primary', type: 'private', host: '10.77.0.2', port: 6379, tls: false }],
      nodes: [{ name: 'node-0', private_ip: '10.77.0.2', role: 'primary', status: 'running', lag_bytes: null }],
      tls_enabled: false,
      deletion_protection: false,
      data_browser_enabled: true,
      tags: row.tags,
      parameters: row.parameters,
      current_operation_id: null,
      backup_window: '03:00-04:00',
      backup_retention_days: 7,
      restored_from: null,
      created_at: row.createdAt.toISOString(),
      updated_at: row.updatedAt.toISOString(),
      sort_value: 'full',
    });
    expect(await repo.getText(projectId, '00000000-0000-4000-8000-000000000000')).toBeUndefined();
  });

  it('page through instances created in one millisecond without gaps or repeats', async () => {
    const [{ id: other }] = await database.db.insert(schema.projects).values({ name: 'same-ms' }).returning();
    // Microseconds apart, so all share the millisecond a millisecond cursor would carry.
    await database.pool.query(
      `INSERT INTO instances (project_id, name, instance_type, region, engine_version, disk_gib, created_at)
       SELECT $1, 'ms-' || i, 'kv.standard.small', 'local', '1.0', 10, '2026-01-01T00:00:00.123Z'::timestamptz + (i || ' microseconds')::interval
       FROM generate_series(1, 30) AS i`,
      [other],
    );
    for (const order of ['desc', 'asc'] as const) {
      const seen: string[] = [];
      let after: { value: string; id: string } | undefined;
      for (;;) {
        const rows = await repo.list(other, { sort: 'created_at', order, limit: 4, ...(after ? { after } : {}) });
        seen.push(...rows.map((r) => r.name));
        if (rows.length < 4) break;
        after = { value: rows[3]!.sort_value, id: rows[3]!.id };
      }
      expect(seen).toHaveLength(30);
      expect(new Set(seen).size).toBe(30);
      expect(seen[0]).toBe(order === 'desc' ? 'ms-30' : 'ms-1');
    }
  });
});

describe('operation pages', () => {
  it('page through operations created in one millisecond without gaps or repeats', async () => {
    const instance = await repo.insert({ ...base, projectId, name: 'ops' });
    await database.pool.query(
      `INSERT INTO operations (project_id, instance_id, type, created_at)
       SELECT $1, $2, 'restart', '2026-01-01T00:00:00.123Z'::timestamptz + (i || ' microseconds')::interval FROM generate_series(1, 30) AS i`,
      [projectId, instance.id],
    );
    const operations = new OperationsRepository(database.db);
    const seen: string[] = [];
    let before: { createdAt: string; id: string } | undefined;
    for (;;) {
      const rows = await operations.listForInstance(projectId, instance.id, 4, before);
      seen.push(...rows.map((r) => r.id));
      if (rows.length < 4) break;
      before = { createdAt: rows[3]!.cursorAt, id: rows[3]!.id };
    }
    expect(seen).toHaveLength(30);
    expect(new Set(seen).size).toBe(30);
  });
});
