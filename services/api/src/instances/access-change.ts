// A change to who may connect to an instance (its users, its allowlist), and how it reaches the
// engine: by an operation when the engine is deployed; stored only when no engine is.
//
// Refused while the instance is being created: the provision reads the users and the allowlist
// when its deploy starts, so a change stored meanwhile would show as done in the API and never
// reach the engine (a deleted user still logging in, an allowlist left open). MemoryDB also
// refuses changes to a cluster that is not available yet.
import { inTransaction, type Database, type Db, type InstanceRow, type OperationRow } from '@basalt/db';
import { Conflict } from '../common/errors.js';
import type { AuthContext } from '../common/request-context.js';
import type { OperationStarter } from '../operations/operation-starter.service.js';

/** States in which the engine is (or will be) deployed and can take live changes. */
export const LIVE = new Set<InstanceRow['status']>(['running', 'modifying', 'restarting', 'error']);

const OPERATIONS = { users: 'apply_users', allowlist: 'apply_allowlist' } as const;

/**
 * Stores `change` and returns the operation that applies it; null when no engine is deployed
 * (`create_failed`: no operation deploys from there, and a deploy would render what is stored).
 */
export async function changeAccess(
  database: Database,
  starter: OperationStarter,
  auth: AuthContext,
  instance: InstanceRow,
  what: keyof typeof OPERATIONS,
  change: (db: Db) => Promise<void>,
): Promise<OperationRow | null> {
  assertAccessChangeable(instance.status);
  if (LIVE.has(instance.status)) {
    return (await starter.start({ instance, type: OPERATIONS[what], userId: auth.user.id, before: change })).operation;
  }
  // No deploy runs now. Under the row's lock, which every operation's start takes too, the
  // status is read again: nothing can start between that check and the change.
  await inTransaction(database.pool, async (db, executor) => {
    const { rows } = await executor.executeSql('SELECT status FROM instances WHERE id = $1 FOR UPDATE', [instance.id]);
    const status: InstanceRow['status'] | undefined = rows[0]?.status;
    if (status !== instance.status) throw new Conflict(`Instance is now ${status ?? 'deleted'}; try again`, 'invalid_state');
    await change(db);
  });
  return null;
}

/** Throws 409 unless the users and the allowlist of an instance in `status` may change. */
export function assertAccessChangeable(status: InstanceRow['status']): void {
  if (status === 'creating') {
    throw new Conflict('Instance is being created: change its users and allowlist once it is running', 'invalid_state');
  }
  if (status === 'deleting' || status === 'deleted') throw new Conflict(`Instance is ${status}`, 'invalid_state');
}
