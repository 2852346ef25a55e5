import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { encryptSecret, type InstanceTypeRow, type InstanceUserRow } from '@basalt/db';
import { engineVars, healthCredentials, vmSizeOf } from './engine-settings.js';

const masterKey = Buffer.alloc(32, 7);
const type = { id: 'kv.standard.small', vcpu: 1, memoryGib: 2 } as InstanceTypeRow;
const user = (username: string, permission: InstanceUserRow['permission'], password: string) =>
  ({ username, permission, passwordEncrypted: encryptSecret(masterKey, password) }) as InstanceUserRow;

describe('engine settings from the instance', () => {
  it('sizes the VM from the instance type', () => {
    expect(vmSizeOf(type)).toEqual({ cpus: 1, memory_mb: 2048 });
  });

  it('renders users with hashed passwords only', () => {
    const users = [user('reader', 'read_only', 'r-secret'), user('default', 'read_write', 'w-secret')];
    const vars = engineVars({
      type,
      users,
      allowlist: [],
      masterKey,
      features: new Set(['users']),
      engineBinary: '/bin/basalt-server',
    });
    expect(vars.engine_maxmemory_mb).toBe(1536);
    expect(vars.engine_users).toEqual([
      { name: 'reader', password_sha256: createHash('sha256').update('r-secret').digest('hex'), permission: 'read_only' },
      { name: 'default', password_sha256: createHash('sha256').update('w-secret').digest('hex'), permission: 'read_write' },
    ]);
    expect(JSON.stringify(vars.engine_users)).not.toContain('secret');
    expect(vars.engine_health_user).toBe('default');
    expect(vars.engine_health_password).toBe('w-secret');
  });

  it('does not authenticate the health check when the engine has no users yet', () => {
    const vars = engineVars({
      type,
      users: [user('default', 'read_write', 'w-secret')],
      allowlist: [],
      masterKey,
      features: new Set(),
      engineBinary: '/bin/basalt-server',
    });
    expect(vars.engine_users_supported).toBe(false);
    expect(vars.engine_health_password).toBe('');
  });

  it('checks health as the first user that may write', () => {
    const users = [user('reader', 'read_only', 'a'), user('admin', 'admin', 'b')];
    expect(healthCredentials(masterKey, users)).toEqual({ user: 'admin', password: 'b' });
  });

  it('turns TLS on only with an engine that has it, and says so otherwise', () => {
    const base = { type, users: [], allowlist: [], masterKey, engineBinary: '/bin/basalt-server', instanceId: 'i-1' };
    const vars = engineVars({ ...base, features: new Set(['tls']), tls: true });
    expect(vars).toMatchObject({ engine_tls_enabled: true, engine_tls_port: 6380, engine_tls_name: 'i-1' });
    expect(engineVars({ ...base, features: new Set(['tls']) }).engine_tls_enabled).toBe(false);
    expect(() => engineVars({ ...base, features: new Set(), tls: true })).toThrow(/tls_enabled .* no TLS/);
  });
});
