import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { SecretEnvError, secretFromEnv } from '../src/env-secret.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'basalt-env-secret-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

it('reads NAME, or the file NAME_FILE names without its trailing newline', () => {
  const file = path.join(dir, 'key');
  fs.writeFileSync(file, 'from-file\n', { mode: 0o600 });
  expect(secretFromEnv({ KEY: 'direct' }, 'KEY')).toBe('direct');
  expect(secretFromEnv({ KEY_FILE: file }, 'KEY')).toBe('from-file');
  expect(secretFromEnv({}, 'KEY')).toBeUndefined();
  expect(secretFromEnv({ KEY: '' }, 'KEY')).toBeUndefined();
});

it('refuses both at once and a file it cannot read, naming the variable', () => {
  const file = path.join(dir, 'both');
  fs.writeFileSync(file, 'x');
  expect(() => secretFromEnv({ KEY: 'a', KEY_FILE: file }, 'KEY')).toThrow(/KEY or KEY_FILE/);
  expect(() => secretFromEnv({ KEY_FILE: path.join(dir, 'missing') }, 'KEY')).toThrow(SecretEnvError);
  expect(() => secretFromEnv({ KEY_FILE: path.join(dir, 'missing') }, 'KEY')).toThrow(/KEY_FILE: cannot read .*ENOENT/);
});
