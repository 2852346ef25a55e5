// Control-plane login passwords: scrypt (N=2^15, r=8, p=1), compared in constant time.
import { randomBytes, scrypt, timingSafeEqual, createHash } from 'node:crypto';

const N = 1 << 15;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;

function derive(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password, salt, KEY_LENGTH, { N: n, r, p, maxmem: 128 * n * r * 2 }, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, N, R, P);
  return `scrypt$${N}$${R}$${P}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, expected] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !expected) return false;
  const key = await derive(password, Buffer.from(salt, 'base64url'), Number(n), Number(r), Number(p));
  const want = Buffer.from(expected, 'base64url');
  return key.length === want.length && timingSafeEqual(key, want);
}

/** Session tokens and API keys are long random strings, so a plain SHA-256 is enough to store them. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}
