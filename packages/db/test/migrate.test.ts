// Migrations apply to an empty database, twice in parallel without harm, and the catalog seeds.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CatalogRepository, createDatabase, migrate } from '../src/index.js';

const adminUrl = process.env.DATABASE_URL!;
const name = `basalt_db_test_${randomBytes(6).toString('hex')}`;
let url: string;

beforeAll(async () => {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const parsed = new URL(adminUrl);
  parsed.pathname = `/${name}`;
  url = parsed.toString();
});

afterAll(async () => {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
});

it('applies every migration once, even when two processes race', async () => {
  const [a, b] = await Promise.all([migrate(url), migrate(url)]);
  expect(a).toBeGreaterThanOrEqual(1);
  expect(b).toBe(a);
  expect(await migrate(url)).toBe(a);
});

it('seeds region local and the instance types idempotently', async () => {
  const database = createDatabase(url);
  const catalog = new CatalogRepository(database.db);
  await catalog.seed();
  await catalog.seed();
  expect((await catalog.listRegions()).map((r) => r.id)).toEqual(['local']);
  const types = await catalog.listInstanceTypes('local');
  expect(types.map((t) => t.id)).toEqual([
    'kv.standard.small',
    'kv.standard.large',
    'kv.standard.xlarge',
    'kv.standard.2xlarge',
    'kv.standard.4xlarge',
    'kv.standard.8xlarge',
    'kv.standard.13xlarge',
  ]);
  expect(types.find((t) => t.id === 'kv.standard.xlarge')).toMatchObject({ vcpu: 4, memoryGib: 16 });
  expect(await catalog.listInstanceTypes('nowhere')).toEqual([]);
  await database.close();
});
