// A database of its own for one test file, in the PostgreSQL the test runner gives
// (DATABASE_URL), dropped at the end.
import { randomBytes } from 'node:crypto';
import { createDatabase } from '@basalt/db';

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

export function requireDatabaseUrl(): string {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is not set: the tests need a real PostgreSQL (npm test provides one)');
  return url;
}

export async function createTestDatabase(prefix: string): Promise<TestDatabase> {
  const admin = createDatabase(requireDatabaseUrl(), { max: 1 });
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  await admin.pool.query(`CREATE DATABASE "${name}"`);
  const url = new URL(requireDatabaseUrl());
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      await admin.pool.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.close();
    },
  };
}
