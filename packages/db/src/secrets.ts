// Instance-user passwords are kept (the worker renders them into engine config on every redeploy),
// so they are encrypted with AES-256-GCM under BASALT_MASTER_KEY: "v1.<iv>.<tag>.<ciphertext>", base64url.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

export class MasterKeyError extends Error {}

/** Parses BASALT_MASTER_KEY (base64 of exactly 32 bytes). */
export function parseMasterKey(base64: string | undefined): Buffer {
  if (!base64) throw new MasterKeyError('BASALT_MASTER_KEY is not set (base64 of 32 random bytes)');
  const key = Buffer.from(base64, 'base64');
  if (key.length !== 32) throw new MasterKeyError('BASALT_MASTER_KEY must be base64 of exactly 32 bytes');
  return key;
}

export function encryptSecret(masterKey: Buffer, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', masterKey, iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  const tag = cipher.getAuthTag();
  return ['v1', iv, tag, ciphertext].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
}

export function decryptSecret(masterKey: Buffer, sealed: string): string {
  const [version, iv, tag, ciphertext] = sealed.split('.');
  if (version !== 'v1' || !iv || !tag || ciphertext === undefined) throw new MasterKeyError('unknown secret format');
  const decipher = createDecipheriv('aes-256-gcm', masterKey, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
}

/** A password for a database user: 24 characters from an unambiguous alphabet (~140 bits). */
export function generatePassword(length = 24): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
  const bytes = randomBytes(length * 2);
  let out = '';
  for (const byte of bytes) {
    if (byte < alphabet.length * 4) out += alphabet[byte % alphabet.length];
    if (out.length === length) break;
  }
  return out.length === length ? out : generatePassword(length);
}
