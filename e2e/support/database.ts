// A fresh database per test file inside the test cluster, so files never see each other's rows.
import crypto from 'node:crypto';
import pg from 'pg';
import { requireEnv } from './env.js';

export async function createDatabase(prefix: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const base = new URL(requireEnv('DATABASE_URL'));
  const name = `${prefix}_${crypto.randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base.toString() });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(base.toString());
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: base.toString() });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await c.end();
    },
  };
}
