// One throw-away database per test file, created in the PostgreSQL the runner gives us.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export async function createTestDatabase(prefix = 'basalt_api_test'): Promise<{ url: string; drop(): Promise<void> }> {
  const adminUrl = process.env.DATABASE_URL!;
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}
