// What the worker writes, against a real database (issue 11): a delete, once asked for, wins
// over a late status from any other operation; health carries its reason and is set only on
// a running instance; leases sit on one connection, free again when released or when it ends.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CatalogRepository,
  createDatabase,
  type Database,
  InstancesRepository,
  LeaseConnection,
  migrate,
  ProvisioningRepository,
  type InstanceStatus,
  schema,
} from '../src/index.js';

const adminUrl = process.env.DATABASE_URL!;
const name = `basalt_worker_writes_${randomBytes(6).toString('hex')}`;
let url: string;
let database: Database;
let worker: ProvisioningRepository;
let instances: InstancesRepository;
let projectId: string;

async function admin(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  await client.query(text);
  await client.end();
}

beforeAll(async () => {
  await admin(`CREATE DATABASE ${name}`);
  const parsed = new URL(adminUrl);
  parsed.pathname = `/${name}`;
  url = parsed.toString();
  await migrate(url);
  database = createDatabase(url);
  await new CatalogRepository(database.db).seed();
  worker = new ProvisioningRepository(database.db, database.pool);
  instances = new InstancesRepository(database.db);
  [{ id: projectId }] = await database.db.insert(schema.projects).values({ name: 'writes' }).returning();
});

afterAll(async () => {
  await database?.pool.end();
  await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
});

const newInstance = (status: InstanceStatus) =>
  instances.insert({ projectId, name: `i-${randomBytes(3).toString('hex')}`, instanceType: 'kv.standard.small', region: 'local', engineVersion: '1.0', diskGib: 10, status });

describe('instance status writes', () => {
  it('never write creating or running over a delete that was asked for', async () => {
    for (const status of ['deleting', 'deleted'] as const) {
      const row = await newInstance(status);
      expect(await worker.updateInstance(row.id, { status: 'creating', fault: null })).toBe(false);
      expect(await worker.updateInstance(row.id, { status: 'running', health: 'healthy' })).toBe(false);
      expect((await worker.getInstance(row.id))!.status).toBe(status);
    }
  });

  it('let the delete itself, and writes without a status, through', async () => {
    const row = await newInstance('deleting');
    expect(await worker.updateInstance(row.id, { fault: { step: 'terraform_destroy' } })).toBe(true);
    expect(await worker.updateInstance(row.id, { status: 'deleted', deletedAt: new Date() })).toBe(true);
    expect((await worker.getInstance(row.id))!.status).toBe('deleted');
  });

  it('set health with its reason only while running, and a job\'s healthy clears the reason', async () => {
    const row = await newInstance('running');
    expect(await worker.updateHealthIfRunning(row.id, 'unavailable', '10.77.0.2:6379: refused')).toBe(true);
    expect(await worker.getInstance(row.id)).toMatchObject({ health: 'unavailable', healthReason: '10.77.0.2:6379: refused' });
    await worker.updateInstance(row.id, { status: 'modifying' });
    expect(await worker.updateHealthIfRunning(row.id, 'healthy', null)).toBe(false);
    await worker.updateInstance(row.id, { status: 'running', health: 'healthy' });
    expect(await worker.getInstance(row.id)).toMatchObject({ health: 'healthy', healthReason: null });
  });
});

describe('leases', () => {
  it('are held by one connection, and free again when released or when that connection ends', async () => {
    const mine = new LeaseConnection(url);
    const theirs = new LeaseConnection(url);
    await Promise.all([mine.open(), theirs.open()]);
    const leases = await Promise.all(Array.from({ length: 20 }, (_, i) => mine.tryLease(`op-${i}`)));
    expect(leases.every(Boolean)).toBe(true);
    expect(await theirs.tryLease('op-0')).toBeUndefined();
    // Nor twice in one process: two jobs of one worker on one instance run one after the other.
    expect(await mine.tryLease('op-0')).toBeUndefined();
    await leases[0]!.release();
    const taken = await theirs.tryLease('op-0');
    expect(taken).toBeDefined();
    await taken!.release();
    expect(await theirs.tryLease('op-1')).toBeUndefined();
    await mine.close(); // a worker that dies: every lease it held is free
    expect(await theirs.tryLease('op-1')).toBeDefined();
    await theirs.close();
  });
});
