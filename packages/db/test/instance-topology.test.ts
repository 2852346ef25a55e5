// The typed contract of nodes, endpoints and address allocations (issue 15): the API's text
// rows carry only the declared fields of what the worker wrote, and migration 0007 moves the
// node addresses of existing instances out of instances.nodes into address_allocations.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate as drizzleMigrate } from 'drizzle-orm/node-postgres/migrator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InstancesRepository, migrate, migrationsFolder, ProvisioningRepository, type InstanceNode } from '../src/index.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';

let testDb: TestDatabase;

beforeAll(async () => {
  testDb = await createTestDatabase('basalt_topology');
});
afterAll(async () => {
  await testDb?.drop();
});

const node = (name: string, ip: string, role: InstanceNode['role']): InstanceNode => ({
  name,
  role,
  status: 'running',
  lag_bytes: role === 'replica' ? 42 : null,
  allocated_ip: ip,
  private_ip: ip,
  public_ip: ip,
  ssh_user: 'root',
  data_dir: '/var/lib/basalt',
});

describe('the instance text row', () => {
  it('holds the declared fields of the nodes and endpoints the worker wrote, and nothing else', async () => {
    const { database, projectId } = testDb;
    const instances = new InstancesRepository(database.db);
    const worker = new ProvisioningRepository(database.db, database.pool);
    const row = await instances.insert({ projectId, name: 'ha', instanceType: 'kv.standard.small', region: 'local', engineVersion: '1.0', diskGib: 10, architecture: 'standard', replicas: 1 });
    await worker.updateInstance(row.id, {
      nodes: [node(`${row.id}-0`, '10.77.9.2', 'primary'), node(`${row.id}-1`, '10.77.9.3', 'replica')],
      endpoints: [
        { role: 'primary', type: 'private', host: '10.77.9.4', port: 6379, tls: false, node: `${row.id}-0` },
        { role: 'readonly', type: 'private', host: '10.77.9.5', port: 6379, tls: false, node: `${row.id}-1` },
      ],
    });
    const text = (await instances.getText(projectId, row.id))!;
    expect(text).toMatchObject({ architecture: 'standard', replicas: 1 });
    expect(JSON.parse(text.nodes)).toEqual([
      { name: `${row.id}-0`, private_ip: '10.77.9.2', role: 'primary', status: 'running', lag_bytes: null },
      { name: `${row.id}-1`, private_ip: '10.77.9.3', role: 'replica', status: 'running', lag_bytes: 42 },
    ]);
    expect(JSON.parse(text.endpoints)).toEqual([
      { role: 'primary', type: 'private', host: '10.77.9.4', port: 6379, tls: false },
      { role: 'readonly', type: 'private', host: '10.77.9.5', port: 6379, tls: false },
    ]);
  });
});

describe('migration 0007', () => {
  it('moves the node addresses of live instances into address_allocations and gives nodes and endpoints their roles', async () => {
    // The migrations up to 0006 in a folder of their own, then the rest.
    const before = await fs.mkdtemp(path.join(os.tmpdir(), 'basalt-migrations-'));
    await fs.mkdir(path.join(before, 'meta'));
    const journal = JSON.parse(await fs.readFile(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8'));
    journal.entries = journal.entries.filter((e: { idx: number }) => e.idx < 7);
    await fs.writeFile(path.join(before, 'meta', '_journal.json'), JSON.stringify(journal));
    for (const entry of journal.entries) await fs.copyFile(path.join(migrationsFolder, `${entry.tag}.sql`), path.join(before, `${entry.tag}.sql`));

    const name = `basalt_topology_mig_${randomBytes(5).toString('hex')}`;
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL! });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(process.env.DATABASE_URL!);
    url.pathname = `/${name}`;
    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    try {
      await drizzleMigrate(drizzle(client), { migrationsFolder: before });
      await client.query(`INSERT INTO regions (id, name, target, address_pool) VALUES ('local', 'Local', 'local', '10.77.0.0/16')`);
      await client.query(`INSERT INTO instance_types (id, size, vcpu, memory_gib, disk_gib_min, disk_gib_max, max_connections, bandwidth_mbps, regions, sort_order)
        VALUES ('t', 's', 1, 1, 1, 10, 100, 100, '{local}', 1)`);
      const [{ id: project }] = (await client.query(`INSERT INTO projects (name) VALUES ('p') RETURNING id`)).rows;
      const old = (ip: string) => [{ name: `n-${ip}`, private_ip: ip, public_ip: ip, ssh_user: 'root', data_dir: '/d' }];
      const insert = async (name: string, status: string, nodes: unknown) =>
        (await client.query(
          `INSERT INTO instances (project_id, name, instance_type, region, engine_version, disk_gib, status, nodes, endpoints)
           VALUES ($1, $2, 't', 'local', '1.0', 1, $3, $4::jsonb, $5::jsonb) RETURNING id`,
          [project, name, status, JSON.stringify(nodes), JSON.stringify([{ type: 'private', host: '10.77.0.2', port: 6379, tls: false, node: 'x' }])],
        )).rows[0].id as string;
      const live = await insert('live', 'running', old('10.77.0.2'));
      await insert('gone', 'deleted', old('10.77.0.3'));
      await client.end();
      await migrate(url.toString());

      const after = new pg.Client({ connectionString: url.toString() });
      await after.connect();
      const allocations = (await after.query(`SELECT region, address, instance_id, name, kind FROM address_allocations`)).rows;
      expect(allocations).toEqual([{ region: 'local', address: '10.77.0.2', instance_id: live, name: 'n-10.77.0.2', kind: 'node' }]);
      const [row] = (await after.query(`SELECT nodes, endpoints, architecture, replicas FROM instances WHERE id = $1`, [live])).rows;
      expect(row).toMatchObject({ architecture: 'standalone', replicas: 0 });
      expect(row.nodes[0]).toMatchObject({ name: 'n-10.77.0.2', role: 'primary', status: 'running', lag_bytes: null, ssh_user: 'root' });
      expect(row.endpoints[0]).toMatchObject({ role: 'primary', host: '10.77.0.2' });
      await after.end();
    } finally {
      await client.end().catch(() => {});
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
      await fs.rm(before, { recursive: true, force: true });
    }
  });
});
