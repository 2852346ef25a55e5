// Address allocation from a region's pool through @basalt/db against a real PostgreSQL:
// concurrent allocations never share an address, an instance keeps its addresses, and a
// deleted instance's addresses go back to the pool.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { CatalogRepository, createDatabase, migrate, ProvisioningRepository, schema, type Database } from '@basalt/db';
import { createTestDatabase, type TestDatabase } from './test-support/database.js';

let testDb: TestDatabase;
let database: Database;
let repo: ProvisioningRepository;
let projectId: string;

beforeAll(async () => {
  testDb = await createTestDatabase('worker_ipam');
  await migrate(testDb.url);
  database = createDatabase(testDb.url, { max: 12 });
  await new CatalogRepository(database.db).seed();
  repo = new ProvisioningRepository(database.db, database.pool);
  const [user] = await database.db.insert(schema.users).values({ email: 'ipam@test', passwordHash: 'x' }).returning();
  const [project] = await database.db.insert(schema.projects).values({ name: 'ipam', createdBy: user!.id }).returning();
  projectId = project!.id;
});

afterAll(async () => {
  await database?.close();
  await testDb?.drop();
});

async function newInstance(name: string): Promise<string> {
  const [row] = await database.db
    .insert(schema.instances)
    .values({ projectId, name, instanceType: 'kv.standard.small', region: 'local', engineVersion: '1.0', diskGib: 10 })
    .returning();
  return row!.id;
}

const POOL = '10.99.0.0/28';
const node0 = (id: string) => [{ name: `${id}-0`, kind: 'node' as const }];
const GATEWAY = '10.99.0.1';

describe('address allocation', () => {
  it('gives concurrent instances distinct addresses, lowest first, skipping the gateway', async () => {
    const ids = await Promise.all(Array.from({ length: 8 }, (_, i) => newInstance(`many-${i}`)));
    const given = await Promise.all(ids.map((id) => repo.allocateAddresses(id, 'local', POOL, node0(id), [GATEWAY])));
    const addresses = given.map((g) => g[0]!.address).sort((a, b) => Number(a.split('.')[3]) - Number(b.split('.')[3]));
    expect(addresses).toEqual(['10.99.0.2', '10.99.0.3', '10.99.0.4', '10.99.0.5', '10.99.0.6', '10.99.0.7', '10.99.0.8', '10.99.0.9']);
    expect(await repo.listAddresses(ids[0]!)).toEqual(given[0]);
  });

  it('keeps the addresses an instance holds', async () => {
    const id = await newInstance('keeps');
    const first = await repo.allocateAddresses(id, 'local', POOL, node0(id), [GATEWAY]);
    expect(await repo.allocateAddresses(id, 'local', POOL, node0(id), [GATEWAY])).toEqual(first);
  });

  it('gives a standard instance its nodes and floating endpoint addresses, and leaves instances.nodes alone', async () => {
    const id = await newInstance('standard');
    const wanted = [
      { name: `${id}-0`, kind: 'node' as const },
      { name: `${id}-1`, kind: 'node' as const },
      { name: 'primary', kind: 'primary_endpoint' as const },
      { name: 'readonly', kind: 'readonly_endpoint' as const },
    ];
    const given = await repo.allocateAddresses(id, 'local', '10.99.2.0/28', wanted, ['10.99.2.1']);
    expect(given.map((a) => [a.name, a.kind, a.address])).toEqual([
      [`${id}-0`, 'node', '10.99.2.2'],
      [`${id}-1`, 'node', '10.99.2.3'],
      ['primary', 'primary_endpoint', '10.99.2.4'],
      ['readonly', 'readonly_endpoint', '10.99.2.5'],
    ]);
    expect((await repo.getInstance(id))!.nodes).toEqual([]);
    expect(await repo.listAddresses(id)).toEqual(given);
    await repo.releaseAddresses(id, ['10.99.2.3']);
    expect((await repo.allocateAddresses(id, 'local', '10.99.2.0/28', wanted, ['10.99.2.1'])).map((a) => a.address)).toEqual([
      '10.99.2.2',
      '10.99.2.3',
      '10.99.2.4',
      '10.99.2.5',
    ]);
  });

  it('runs out with a clear error, and a deleted instance frees its address', async () => {
    for (const name of ['filler-1', 'filler-2', 'filler-3', 'filler-4']) {
      const id = await newInstance(name);
      await repo.allocateAddresses(id, 'local', POOL, node0(id), [GATEWAY]);
    }
    const full = await newInstance('one-too-many');
    const error = await repo.allocateAddresses(full, 'local', POOL, node0(full), [GATEWAY]).catch((e: unknown) => e);
    expect(String(error)).toMatch(/no free address left in 10\.99\.0\.0\/28/);

    const [victim] = await database.db.select().from(schema.instances).where(eq(schema.instances.name, 'keeps'));
    const freed = (await repo.listAddresses(victim!.id))[0]!.address;
    await repo.updateInstance(victim!.id, { status: 'deleted', nodes: [] });
    const [node] = await repo.allocateAddresses(full, 'local', POOL, node0(full), [GATEWAY]);
    expect(node!.address).toBe(freed);
  });

  it('a benchmark client holds its address against VMs until released, and keeps it on a retry', async () => {
    const pool = '10.99.1.0/29';
    const gateway = '10.99.1.1';
    const instance = await newInstance('benchmarked');
    await repo.allocateAddresses(instance, 'local', pool, node0(instance), [gateway]);
    const [run] = await database.db
      .insert(schema.benchmarks)
      .values({ instanceId: instance, instanceType: 'kv.standard.small', tool: 'basalt-bench', workload: 'custom' })
      .returning();
    // Run addresses come from the top of the pool, nodes' from the bottom.
    const client = await repo.allocateClientAddress(run!.id, 'local', pool, 'bb-test', [gateway]);
    expect(client).toBe('10.99.1.6');
    expect(await repo.allocateClientAddress(run!.id, 'local', pool, 'bb-test', [gateway])).toBe(client);
    expect(await repo.allocateClientAddress(run!.id, 'local', pool, 'bp-test', [gateway], 'peer')).toBe('10.99.1.5');
    for (const name of ['beside-client-1', 'beside-client-2']) {
      const id = await newInstance(name);
      await repo.allocateAddresses(id, 'local', pool, node0(id), [gateway]);
    }
    // .2 to .4 are nodes now: the pool is full, the client's and the peer's addresses not given away.
    const extra = await newInstance('beside-client-3');
    await expect(repo.allocateAddresses(extra, 'local', pool, node0(extra), [gateway])).rejects.toThrow(/no free address/);
    expect((await repo.listBenchmarkClients()).find((c) => c.id === run!.id)).toMatchObject({ namespace: 'bb-test', peerNamespace: 'bp-test', status: 'pending' });
    await repo.releaseClientAddress(run!.id);
    const [freed] = await repo.allocateAddresses(extra, 'local', pool, node0(extra), [gateway]);
    expect(freed!.address).toBe('10.99.1.6');
  });
});
