// Connection pool and drizzle handle; `inTransaction` also hands out the raw client so a job can be
// enqueued in the same transaction as the rows it refers to.
import pg from 'pg';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import * as schema from './schema.js';

export type Db = NodePgDatabase<typeof schema>;

/** What pg-boss needs to run its SQL inside our transaction. */
export interface SqlExecutor {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: any[] }>;
}

export interface Database {
  db: Db;
  pool: pg.Pool;
  close(): Promise<void>;
}

export function createDatabase(databaseUrl: string, options: { max?: number; connectionTimeoutMillis?: number } = {}): Database {
  // A query that cannot get a connection fails after a while instead of waiting forever.
  const pool = new pg.Pool({ connectionString: databaseUrl, max: options.max ?? 10, connectionTimeoutMillis: options.connectionTimeoutMillis ?? 30_000 });
  // An idle client losing its connection must not crash the process.
  pool.on('error', () => {});
  const db = drizzle(pool, { schema });
  return { db, pool, close: () => pool.end() };
}

export async function inTransaction<T>(
  pool: pg.Pool,
  work: (db: Db, executor: SqlExecutor) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const db = drizzle(client, { schema });
    const executor: SqlExecutor = { executeSql: (text, values) => client.query(text, values) };
    const result = await work(db, executor);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}
