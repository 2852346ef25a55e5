// The engine's users file, rendered here and only copied by Ansible (never a template):
// - the customer's users with the SHA-256 of their passwords, and during a rotation the
//   old password's hash beside the new one until it expires;
// - `default` switched off when the customer deleted it (the engine would otherwise make
//   it `on nopass`, as Redis does, and open the instance to anyone);
// - the control plane's own user, which health checks and live changes use, so nothing
//   the customer does to their users (read-only `default`, deletion) locks the worker out.
import { createHash } from 'node:crypto';
import type { InstanceUserRow } from '@basalt/db';
import { DB_USERNAME } from '@basalt/api-client/rules';
import { StepError } from './errors.js';

/**
 * The control plane's user on every engine. `:` is not allowed in a customer's username
 * (DB_USERNAME in @basalt/api-client/rules), so the name can never be taken or shadowed by one.
 */
export { CONTROL_USER } from '@basalt/db';
import { CONTROL_USER } from '@basalt/db';

/**
 * What the control plane needs: log in, PING, reload users, set the allowlist, read config and
 * INFO; for failover (issue 15) ROLE, REPLICAOF (promote, point a replica at a new primary)
 * and WAIT (a switchover waits until the replica has every write); for backups (issue 44)
 * BACKUP (the log's segments, their bytes, the archived mark, a base).
 */
const CONTROL_RULES = 'resetkeys resetchannels -@all +auth +hello +ping +acl|load +config|get +config|set +info +slowlog|get +role +replicaof +wait +backup';
/** The user a replica of a `standard` instance logs in to its primary as (masteruser). */
export const REPLICATION_USER = 'basalt:replication';
/** What a replica does on its primary: log in and stream (PSYNC, REPLCONF), nothing else. */
const REPLICATION_RULES = 'resetkeys resetchannels -@all +auth +hello +ping +psync +replconf';

/** ACL rules of each permission a customer can give a user. */
export const PERMISSION_RULES: Record<InstanceUserRow['permission'], string> = {
  read_only: '~* &* -@all +@read +@connection',
  read_write: '~* &* +@all -@admin -@dangerous',
  admin: '~* &* +@all',
};

export function sha256Hex(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

export interface EngineUser {
  username: string;
  permission: InstanceUserRow['permission'];
  /** The current password first; the old one while its rotation window is open. */
  passwords: string[];
}

/** The customer's users with clear passwords (decrypted by the caller), old ones dropped once expired. */
export function engineUsersOf(rows: InstanceUserRow[], decrypt: (sealed: string) => string, now = new Date()): EngineUser[] {
  return rows.map((row) => {
    const oldValid = row.oldPasswordEncrypted && row.oldPasswordExpiresAt && row.oldPasswordExpiresAt.getTime() > now.getTime();
    const passwords = [decrypt(row.passwordEncrypted)];
    if (oldValid) passwords.push(decrypt(row.oldPasswordEncrypted!));
    return { username: row.username, permission: row.permission, passwords: [...new Set(passwords)] };
  });
}

/**
 * The users file: one `user` line per user, hashes only. `controlPasswords`: the control
 * user's (one, or two while it rotates); `replicationPassword`: a `standard` instance's.
 */
export function renderUsersFile(users: EngineUser[], controlPasswords: string[], replicationPassword?: string): string {
  const lines = ['# Rendered by the Basalt worker from the control plane\'s PostgreSQL; hashes only.'];
  for (const user of users) {
    // The API's rule, checked again: a space or newline here would add rules or users to the file.
    if (!DB_USERNAME.test(user.username)) throw new StepError('ansible', `username ${JSON.stringify(user.username)} is not one the API accepts`);
    const rules = PERMISSION_RULES[user.permission];
    if (!rules) throw new StepError('ansible', `unknown permission ${String(user.permission)}`);
    lines.push(['user', user.username, 'on', 'resetpass', ...user.passwords.map((p) => `#${sha256Hex(p)}`), rules].join(' '));
  }
  // No `default` among the customer's users: present, off, and without a password.
  if (!users.some((u) => u.username === 'default')) lines.push('user default off resetpass resetkeys resetchannels -@all');
  if (controlPasswords.length === 0) throw new StepError('ansible', 'the control plane user has no password');
  lines.push(['user', CONTROL_USER, 'on', 'resetpass', ...controlPasswords.map((p) => `#${sha256Hex(p)}`), CONTROL_RULES].join(' '));
  if (replicationPassword) lines.push(['user', REPLICATION_USER, 'on', 'resetpass', `#${sha256Hex(replicationPassword)}`, REPLICATION_RULES].join(' '));
  return lines.join('\n') + '\n';
}
