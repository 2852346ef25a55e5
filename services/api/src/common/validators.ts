// Validators shared by DTOs: tags maps and CIDRs.
import { isIP } from 'node:net';
import { registerDecorator, type ValidationOptions } from 'class-validator';

export const TAG_KEY = /^[A-Za-z0-9_.:/=+@-]{1,64}$/;
export const MAX_TAGS = 50;

export function isTags(value: unknown): value is Record<string, string> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const entries = Object.entries(value);
  return entries.length <= MAX_TAGS && entries.every(([k, v]) => TAG_KEY.test(k) && typeof v === 'string' && v.length <= 256);
}

/** A map of at most 50 tags: keys `[A-Za-z0-9_.:/=+@-]{1,64}`, string values up to 256 characters. */
export function IsTags(options?: ValidationOptions) {
  return (object: object, propertyName: string) =>
    registerDecorator({
      name: 'isTags',
      target: object.constructor,
      propertyName,
      options: { message: `${propertyName} must map at most ${MAX_TAGS} keys of [A-Za-z0-9_.:/=+@-]{1,64} to strings of at most 256 characters`, ...options },
      validator: { validate: isTags },
    });
}

/**
 * Parses a CIDR (IPv4 or IPv6; a bare address means a single host) and returns it in canonical
 * form, or undefined when it is not one. Host bits must be zero, as a firewall would require.
 */
export function normaliseCidr(input: string): string | undefined {
  const [address, prefixText, ...rest] = input.trim().split('/');
  if (rest.length || !address) return undefined;
  const family = isIP(address);
  if (!family) return undefined;
  const bits = family === 4 ? 32 : 128;
  if (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText)) return undefined;
  const prefix = prefixText === undefined ? bits : Number(prefixText);
  if (prefix > bits) return undefined;
  const value = family === 4 ? ipv4ToBigInt(address) : ipv6ToBigInt(address);
  if (value === undefined) return undefined;
  const hostMask = (1n << BigInt(bits - prefix)) - 1n;
  if ((value & hostMask) !== 0n) return undefined;
  return `${family === 4 ? bigIntToIpv4(value) : bigIntToIpv6(value)}/${prefix}`;
}

function ipv4ToBigInt(address: string): bigint | undefined {
  const parts = address.split('.').map(Number);
  return parts.reduce((acc, p) => (acc << 8n) + BigInt(p), 0n);
}

function bigIntToIpv4(value: bigint): string {
  return [24n, 16n, 8n, 0n].map((shift) => Number((value >> shift) & 255n)).join('.');
}

function ipv6ToBigInt(address: string): bigint | undefined {
  let text = address.toLowerCase();
  if (text.includes('.')) {
    const lastColon = text.lastIndexOf(':');
    const v4 = ipv4ToBigInt(text.slice(lastColon + 1))!;
    text = `${text.slice(0, lastColon)}:${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const headParts = head ? head.split(':') : [];
  const tailParts = tail ? tail.split(':') : [];
  const missing = 8 - headParts.length - tailParts.length;
  const groups = text.includes('::') ? [...headParts, ...Array(missing).fill('0'), ...tailParts] : headParts;
  if (groups.length !== 8) return undefined;
  return groups.reduce((acc, g) => (acc << 16n) + BigInt(parseInt(g, 16)), 0n);
}

function bigIntToIpv6(value: bigint): string {
  const groups = Array.from({ length: 8 }, (_, i) => Number((value >> BigInt(16 * (7 - i))) & 0xffffn).toString(16));
  // Collapse the longest run of zero groups (RFC 5952).
  let bestStart = -1;
  let bestLength = 0;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== '0') {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === '0') j++;
    if (j - i > bestLength && j - i > 1) {
      bestStart = i;
      bestLength = j - i;
    }
    i = j;
  }
  if (bestStart < 0) return groups.join(':');
  return `${groups.slice(0, bestStart).join(':')}::${groups.slice(bestStart + bestLength).join(':')}`;
}
