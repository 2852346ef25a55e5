// Applies the drizzle-kit migrations shipped in ../migrations; safe to call from several processes at once.
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate as drizzleMigrate } from 'drizzle-orm/node-postgres/migrator';

export const migrationsFolder = fileURLToPath(new URL('../migrations', import.meta.url));

// Any constant works; it only has to be the same for every Basalt process.
const MIGRATION_LOCK_ID = 0x62617361;

/** Applies pending migrations and returns how many are applied in total. */
export async function migrate(databaseUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    await drizzleMigrate(drizzle(client), { migrationsFolder });
    return await countAppliedMigrations(client);
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => {});
    await client.end();
  }
}

export async function countAppliedMigrations(client: { query: pg.Client['query'] }): Promise<number> {
  const result = await client.query(
    `SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations`,
  );
  return (result.rows[0] as { n: number }).n;
}
