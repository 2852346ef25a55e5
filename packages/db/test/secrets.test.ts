import { randomBytes } from 'node:crypto';
import { expect, it } from 'vitest';
import { decryptSecret, encryptSecret, generatePassword, MasterKeyError, parseMasterKey } from '../src/secrets.js';

it('round-trips a secret and refuses a tampered one', () => {
  const key = randomBytes(32);
  const sealed = encryptSecret(key, 'hunter2-hunter2');
  expect(sealed).not.toContain('hunter2');
  expect(decryptSecret(key, sealed)).toBe('hunter2-hunter2');
  const tampered = sealed.slice(0, -2) + (sealed.endsWith('A') ? 'BB' : 'AA');
  expect(() => decryptSecret(key, tampered)).toThrow();
  expect(() => decryptSecret(randomBytes(32), sealed)).toThrow();
});

it('parses only a 32-byte base64 master key', () => {
  expect(parseMasterKey(randomBytes(32).toString('base64'))).toHaveLength(32);
  expect(() => parseMasterKey(randomBytes(16).toString('base64'))).toThrow(MasterKeyError);
  expect(() => parseMasterKey(undefined)).toThrow(MasterKeyError);
});

it('generates distinct passwords of the asked length', () => {
  const a = generatePassword();
  expect(a).toMatch(/^[A-Za-z2-9]{24}$/);
  expect(generatePassword()).not.toBe(a);
});
