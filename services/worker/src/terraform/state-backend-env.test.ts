import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { stateBackendEnv } from './state-backend-env.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'basalt-tf-pgpass-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

it('passes the URL without its password, and the password in a mode-600 pgpass file', () => {
  const password = 'p:a\\ss@w/rd $(touch /tmp/x)';
  const env = stateBackendEnv(`postgres://state_user:${encodeURIComponent(password)}@127.0.0.1:5433/basalt`, path.join(dir, 'a'));
  expect(env.PG_CONN_STR).toBe('postgres://state_user@127.0.0.1:5433/basalt?sslmode=disable');
  expect(JSON.stringify(env)).not.toContain('touch');
  const file = env.PGPASSFILE!;
  expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  // pgpass escapes ':' and '\' with a backslash; host, port and database match any.
  expect(fs.readFileSync(file, 'utf8')).toBe('*:*:*:state_user:p\\:a\\\\ss@w/rd $(touch /tmp/x)\n');
});

it('keeps the sslmode a URL gives, and writes no file for a URL without a password', () => {
  const env = stateBackendEnv('postgres://state_user@127.0.0.1/basalt?sslmode=require', path.join(dir, 'b'));
  expect(env).toEqual({ PG_CONN_STR: 'postgres://state_user@127.0.0.1/basalt?sslmode=require' });
  expect(fs.existsSync(path.join(dir, 'b', 'pgpass'))).toBe(false);
});
