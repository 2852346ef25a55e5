// Closes password rotation windows. After a reset both passwords open the user until the old
// one is revoked or its window (BASALT_PASSWORD_ROTATION_SECONDS in the API, 24 h by default)
// ends; at the end the worker forgets the old password and applies the users to the engine
// (an apply_users operation), so it stops working within one check of its expiry.
// Any number of workers may run this: the old passwords are dropped in the transaction that
// starts the operation, so only one of them starts it.
import type PgBoss from 'pg-boss';
import { InstanceUsersRepository, startOperation, type Database, type InstanceStatus } from '@basalt/db';

/** Instances that can take a live change now (the API's LIVE set). */
const LIVE: InstanceStatus[] = ['running', 'modifying', 'restarting', 'error'];

/** How often the worker looks for closed windows: BASALT_PASSWORD_EXPIRY_CHECK_MS, 30 s by default. */
export function expiryCheckIntervalMs(env: NodeJS.ProcessEnv = process.env): number {
  const value = Number(env.BASALT_PASSWORD_EXPIRY_CHECK_MS ?? 30_000);
  return Number.isInteger(value) && value > 0 ? value : 30_000;
}

class NothingExpired extends Error {}

/** Starts one apply_users operation per instance with an expired old password; returns how many. */
export async function expireOldPasswords(database: Database, boss: PgBoss): Promise<number> {
  let started = 0;
  for (const instance of await new InstanceUsersRepository(database.db).instancesWithExpiredOldPasswords(LIVE)) {
    try {
      await startOperation(database.pool, boss, {
        instance,
        type: 'apply_users',
        userId: null,
        before: async (db) => {
          if ((await new InstanceUsersRepository(db).dropExpiredOldPasswords(instance.id)) === 0) throw new NothingExpired();
        },
      });
      started++;
    } catch (error) {
      if (!(error instanceof NothingExpired)) throw error;
    }
  }
  return started;
}

/** Checks every `intervalMs` until the returned function is called. */
export function startPasswordExpiry(database: Database, boss: PgBoss, log: (message: string) => void, intervalMs = expiryCheckIntervalMs()): () => void {
  let running = false;
  const check = async () => {
    if (running) return;
    running = true;
    try {
      const started = await expireOldPasswords(database, boss);
      if (started) log(`password rotation: old passwords expired on ${started} instance(s); apply_users started`);
    } catch (error) {
      log(`password rotation check failed: ${(error as Error).message}`);
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void check(), intervalMs);
  void check();
  return () => clearInterval(timer);
}
