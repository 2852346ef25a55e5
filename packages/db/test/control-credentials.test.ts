// The control plane's own engine password of an instance, against a real database: made on
// first use, sealed (never stored in clear), rotated only when asked and old enough, and a
// pending one kept across a failed deploy until promoted.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ControlCredentialsRepository, type Database, schema } from '../src/index.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';

const masterKey = randomBytes(32);
let test: TestDatabase;
let database: Database;
let repo: ControlCredentialsRepository;
let instanceId: string;

beforeAll(async () => {
  test = await createTestDatabase('basalt_control_test');
  database = test.database;
  const [instance] = await database.db
    .insert(schema.instances)
    .values({ projectId: test.projectId, name: 'i', instanceType: 'kv.standard.small', region: 'local', engineVersion: '1.0', diskGib: 10 })
    .returning();
  instanceId = instance!.id;
  repo = new ControlCredentialsRepository(database.db, masterKey);
});

afterAll(async () => {
  await test?.drop();
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

  it('make a replication password once, sealed, and keep it across control rotations', async () => {
    const replication = await repo.replicationPassword(instanceId);
    expect(replication).toMatch(/^[A-Za-z0-9]{32}$/);
    await repo.prepare(instanceId, 0);
    expect(await repo.replicationPassword(instanceId)).toBe(replication);
    const [row] = await database.db.select().from(schema.instanceControlCredentials);
    expect(JSON.stringify(row)).not.toContain(replication);
  });
});
