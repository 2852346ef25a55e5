// A database of one test file in the PostgreSQL of DATABASE_URL: created, migrated and seeded
// with the catalog, with a project to put rows in; dropped again by `drop`.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { CatalogRepository, createDatabase, type Database, migrate, schema } from '../../src/index.js';

export interface TestDatabase {
  url: string;
  database: Database;
  projectId: string;
  drop(): Promise<void>;
}

async function asAdmin(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL! });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

export async function createTestDatabase(prefix: string): Promise<TestDatabase> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await asAdmin(`CREATE DATABASE ${name}`);
  const parsed = new URL(process.env.DATABASE_URL!);
  parsed.pathname = `/${name}`;
  const url = parsed.toString();
  await migrate(url);
  const database = createDatabase(url);
  await new CatalogRepository(database.db).seed();
  const [project] = await database.db.insert(schema.projects).values({ name: prefix }).returning();
  return {
    url,
    database,
    projectId: project!.id,
    drop: async () => {
      await database.pool.end();
      await asAdmin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}
