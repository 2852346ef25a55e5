// The control plane's own engine password of an instance, against a real database: made on
// first use, sealed (never stored in clear), rotated only when asked and old enough, and a
// pending one kept across a failed deploy until promoted.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CatalogRepository, ControlCredentialsRepository, createDatabase, type Database, migrate, schema } from '../src/index.js';

const adminUrl = process.env.DATABASE_URL!;
const name = `basalt_control_test_${randomBytes(6).toString('hex')}`;
const masterKey = randomBytes(32);
let database: Database;
let repo: ControlCredentialsRepository;
let instanceId: string;

async function admin(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  await client.query(text);
  await client.end();
}

beforeAll(async () => {
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  await migrate(url.toString());
  database = createDatabase(url.toString());
  await new CatalogRepository(database.db).seed();
  const [project] = await database.db.insert(schema.projects).values({ name: 'control' }).returning();
  const [instance] = await database.db
    .insert(schema.instances)
    .values({ projectId: project!.id, name: 'i', instanceType: 'kv.standard.small', region: 'local', engineVersion: '1.0', diskGib: 10 })
    .returning();
  instanceId = instance!.id;
  repo = new ControlCredentialsRepository(database.db, masterKey);
});

afterAll(async () => {
  await database?.pool.end();
  await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
});

describe('control credentials', () => {
  it('are made once, sealed, and rotated only when asked and old enough', async () => {
    const first = await repo.prepare(instanceId);
    expect(first.current).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(first.next).toBeUndefined();
    expect(await repo.prepare(instanceId)).toEqual(first);
    const [row] = await database.db.select().from(schema.instanceControlCredentials);
    expect(JSON.stringify(row)).not.toContain(first.current);

    // A day old at the earliest: a password made just now stays.
    expect((await repo.prepare(instanceId, 86_400)).next).toBeUndefined();

    const rotating = await repo.prepare(instanceId, 0);
    expect(rotating.current).toBe(first.current);
    expect(rotating.next).toMatch(/^[A-Za-z0-9]{32}$/);
    // A deploy that failed left it pending: the next one offers the same, never a third.
    expect(await repo.prepare(instanceId, 0)).toEqual(rotating);

    await repo.promote(instanceId, rotating.next!);
    expect(await repo.prepare(instanceId)).toEqual({ current: rotating.next });
  });
});
