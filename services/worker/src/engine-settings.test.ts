import { describe, expect, it } from 'vitest';
import type { InstanceTypeRow } from '@basalt/db';
import { engineVars, vmSizeOf } from './engine-settings.js';
import { CONTROL_USER, sha256Hex } from './engine-users.js';

const type = { id: 'kv.standard.small', vcpu: 1, memoryGib: 2, maxConnections: 10_000 } as InstanceTypeRow;
const base = {
  type,
  users: [
    { username: 'reader', permission: 'read_only' as const, passwords: ['r-secret'] },
    { username: 'default', permission: 'read_write' as const, passwords: ['w-secret'] },
  ],
  allowlist: [],
  control: { current: 'control-current' },
  features: new Set(['users']),
  engineBinary: '/bin/basalt-server',
};

describe('engine settings from the instance', () => {
  it('sizes the VM from the instance type', () => {
    expect(vmSizeOf(type)).toEqual({ cpus: 1, memory_mb: 2048 });
  });

  it('renders the users file with hashed passwords only, and checks health as the control user', () => {
    const vars = engineVars(base);
    expect(vars.engine_maxmemory_mb).toBe(1536);
    const file = String(vars.engine_users_file_content);
    expect(file).toContain(`user reader on resetpass #${sha256Hex('r-secret')} ~* &* -@all +@read +@connection`);
    expect(file).toContain(`user default on resetpass #${sha256Hex('w-secret')} ~* &* +@all -@admin -@dangerous`);
    expect(file).not.toContain('secret ');
    expect(JSON.stringify(vars)).not.toMatch(/[rw]-secret/);
    expect(vars.engine_control_user).toBe(CONTROL_USER);
    expect(vars.engine_control_passwords).toEqual(['control-current']);
  });

  it('tries the next control password first while it rotates, and the engine gets both hashes', () => {
    const vars = engineVars({ ...base, control: { current: 'old-one', next: 'new-one' } });
    expect(vars.engine_control_passwords).toEqual(['new-one', 'old-one']);
    expect(String(vars.engine_users_file_content)).toContain(`user ${CONTROL_USER} on resetpass #${sha256Hex('new-one')} #${sha256Hex('old-one')} `);
  });

  it('refuses an engine without users: its default user would serve anyone', () => {
    expect(() => engineVars({ ...base, features: new Set() })).toThrow(/never deployed open/);
  });

  it('passes maxclients and timeout, defaulting to the type and never', () => {
    expect(engineVars(base)).toMatchObject({ engine_maxclients: 10_000, engine_timeout: 0, engine_fsync: 'everysec' });
    expect(engineVars({ ...base, parameters: { maxclients: 77, timeout: 300, fsync: 'always' } })).toMatchObject({
      engine_maxclients: 77,
      engine_timeout: 300,
      engine_fsync: 'always',
    });
  });

  it("admits a standard instance's own nodes through a customer's allowlist, and leaves an empty one open", () => {
    const allowlist = [{ cidr: '10.77.0.1/32' }, { cidr: '192.0.2.0/24' }] as never;
    const replication = { mode: 'sync' as const, password: 'repl-secret', peers: ['10.77.0.5', '10.77.0.6'] };
    expect(engineVars({ ...base, allowlist, replication }).engine_allowlist).toEqual(['10.77.0.1/32', '192.0.2.0/24', '10.77.0.5/32', '10.77.0.6/32']);
    expect(engineVars({ ...base, replication }).engine_allowlist).toEqual([]);
    expect(engineVars({ ...base, allowlist }).engine_allowlist).toEqual(['10.77.0.1/32', '192.0.2.0/24']);
  });

  it('turns TLS on only with an engine that has it, and says so otherwise', () => {
    const tlsBase = { ...base, instanceId: 'i-1' };
    const vars = engineVars({ ...tlsBase, features: new Set(['users', 'tls']), tls: true });
    expect(vars).toMatchObject({ engine_tls_enabled: true, engine_tls_port: 6380, engine_tls_name: 'i-1' });
    expect(engineVars({ ...tlsBase, features: new Set(['users', 'tls']) }).engine_tls_enabled).toBe(false);
    expect(() => engineVars({ ...tlsBase, tls: true })).toThrow(/tls_enabled .* no TLS/);
  });
});
