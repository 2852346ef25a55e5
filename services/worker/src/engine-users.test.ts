import { describe, expect, it } from 'vitest';
import { encryptSecret, decryptSecret, type InstanceUserRow } from '@basalt/db';
import { CONTROL_USER, engineUsersOf, renderUsersFile, sha256Hex } from './engine-users.js';

const masterKey = Buffer.alloc(32, 7);
const decrypt = (sealed: string) => decryptSecret(masterKey, sealed);
const row = (username: string, password: string, old?: { password: string; until: Date }) =>
  ({
    username,
    permission: 'admin',
    passwordEncrypted: encryptSecret(masterKey, password),
    oldPasswordEncrypted: old ? encryptSecret(masterKey, old.password) : null,
    oldPasswordExpiresAt: old?.until ?? null,
  }) as InstanceUserRow;

describe('the engine users file', () => {
  it('keeps the old password beside the new one until its window closes', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    const open = engineUsersOf([row('app', 'new-password', { password: 'old-password', until: new Date(now.getTime() + 1000) })], decrypt, now);
    expect(open[0]!.passwords).toEqual(['new-password', 'old-password']);
    const closed = engineUsersOf([row('app', 'new-password', { password: 'old-password', until: new Date(now.getTime() - 1) })], decrypt, now);
    expect(closed[0]!.passwords).toEqual(['new-password']);
  });

  it('switches default off when the customer deleted it, and always has the control user', () => {
    const file = renderUsersFile([{ username: 'app', permission: 'read_write', passwords: ['app-password'] }], ['control']);
    expect(file.split('\n')).toContain('user default off resetpass resetkeys resetchannels -@all');
    expect(file).toContain(`user ${CONTROL_USER} on resetpass #${sha256Hex('control')} resetkeys resetchannels -@all +auth +hello +ping +acl|load +config|get +config|set +info`);
    expect(renderUsersFile([{ username: 'default', permission: 'admin', passwords: ['p'] }], ['c'])).not.toContain('user default off');
  });

  it('refuses a username the API would not accept rather than write it into the file', () => {
    for (const username of ['a b', 'x\nuser evil on nopass +@all', 'c:d', '']) {
      expect(() => renderUsersFile([{ username, permission: 'admin', passwords: ['p'] }], ['c'])).toThrow(/not one the API accepts/);
    }
  });

  it('gives a standard instance a replication user that may only log in and stream, hash only', () => {
    const file = renderUsersFile([], ['control'], 'replication-secret');
    const line = file.split('\n').find((l) => l.startsWith('user basalt:replication '))!;
    expect(line).toBe(`user basalt:replication on resetpass #${sha256Hex('replication-secret')} resetkeys resetchannels -@all +auth +hello +ping +psync +replconf`);
    expect(file).not.toContain('replication-secret');
    expect(renderUsersFile([], ['control'])).not.toContain('basalt:replication');
  });
});
