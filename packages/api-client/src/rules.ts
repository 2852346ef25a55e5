// The validation rules of the Basalt API, in one place for everyone who checks a value before
// it goes anywhere: the API (its DTOs), the console (its forms, before a round trip) and the
// worker (again, before a value is written into an engine file). Pure TypeScript without
// Node or DOM APIs, so it runs in the browser too. Import from `@basalt/api-client/rules`.

/** Instance names: 1-63 lowercase letters, digits and hyphens, starting with a letter, not ending with a hyphen. */
export const INSTANCE_NAME = /^[a-z][a-z0-9-]{0,61}[a-z0-9]$|^[a-z]$/;

/**
 * Database usernames. `:` is left out on purpose: the control plane's own engine user has one
 * in its name, so no customer can take or shadow it.
 */
export const DB_USERNAME = /^[A-Za-z0-9_.-]{1,64}$/;

export const DB_PASSWORD_MIN = 12;
export const DB_PASSWORD_MAX = 128;
/** Database passwords: printable ASCII without spaces, quotes or backslashes (safe in URIs and engine config). */
export const DB_PASSWORD = /^[A-Za-z0-9!#$%&()*+,\-.:;<=>?@[\]^_{|}~]{12,128}$/;

/**
 * Tag keys. No `=`: the console writes tags as `key=value` lines, so a key holding one could be
 * stored but never shown or edited there.
 */
export const TAG_KEY = /^[A-Za-z0-9_.:/+@-]{1,64}$/;
export const TAGS_MAX = 50;
export const TAG_VALUE_MAX = 256;

export function isTags(value: unknown): value is Record<string, string> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const entries = Object.entries(value);
  return entries.length <= TAGS_MAX && entries.every(([k, v]) => TAG_KEY.test(k) && typeof v === 'string' && v.length <= TAG_VALUE_MAX);
}

export const ALLOWLIST_MAX = 1000;

/** Why a CIDR is refused, or its canonical form. */
export type CidrResult = { cidr: string } | { error: string };

/**
 * Parses an allowlist CIDR (IPv4 or IPv6; a bare address means one host). Host bits must be zero,
 * as a firewall requires. IPv4-mapped IPv6 (::ffff:a.b.c.d) is refused: clients connect over IPv4
 * with their IPv4 address, which such an entry would never match; write the IPv4 CIDR instead.
 */
export function parseCidr(input: string): CidrResult {
  const [address, prefixText, ...rest] = input.trim().split('/');
  const bad = { error: `${JSON.stringify(input)} is not an IPv4/IPv6 address or CIDR with zero host bits` };
  if (rest.length || !address) return bad;
  const v4 = ipv4ToBigInt(address);
  const v6 = v4 === undefined ? ipv6ToBigInt(address) : undefined;
  const value = v4 ?? v6;
  if (value === undefined) return bad;
  const bits = v4 !== undefined ? 32 : 128;
  if (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText)) return bad;
  const prefix = prefixText === undefined ? bits : Number(prefixText);
  if (prefix > bits) return bad;
  const hostMask = (1n << BigInt(bits - prefix)) - 1n;
  if ((value & hostMask) !== 0n) return bad;
  if (v6 !== undefined && prefix >= 96 && value >> 32n === 0xffffn) {
    return { error: `${JSON.stringify(input)} is an IPv4-mapped IPv6 address; write it as IPv4 (e.g. ${bigIntToIpv4(value & 0xffffffffn)}/${prefix - 96})` };
  }
  return { cidr: `${v4 !== undefined ? bigIntToIpv4(value) : bigIntToIpv6(value)}/${prefix}` };
}

/** The canonical form of a valid allowlist CIDR, or undefined. */
export function normaliseCidr(input: string): string | undefined {
  const result = parseCidr(input);
  return 'cidr' in result ? result.cidr : undefined;
}

/**
 * Whether an address lies in an allowlist CIDR (a bare address is one host), as the engine
 * matches a client: an IPv4 address never lies in an IPv6 CIDR, nor the other way round.
 */
export function cidrContains(cidr: string, ip: string): boolean {
  const parsed = normaliseCidr(cidr);
  if (!parsed) return false;
  const [base, prefixText] = parsed.split('/') as [string, string];
  const v4 = ipv4ToBigInt(base);
  const network = v4 ?? ipv6ToBigInt(base);
  const address = v4 !== undefined ? ipv4ToBigInt(ip) : ipv6ToBigInt(ip);
  if (network === undefined || address === undefined) return false;
  const hostBits = BigInt((v4 !== undefined ? 32 : 128) - Number(prefixText));
  return network >> hostBits === address >> hostBits;
}

function ipv4ToBigInt(address: string): bigint | undefined {
  const parts = address.split('.');
  if (parts.length !== 4 || !parts.every((p) => /^(0|[1-9]\d{0,2})$/.test(p) && Number(p) <= 255)) return undefined;
  return parts.reduce((acc, p) => (acc << 8n) + BigInt(p), 0n);
}

function bigIntToIpv4(value: bigint): string {
  return [24n, 16n, 8n, 0n].map((shift) => Number((value >> shift) & 255n)).join('.');
}

function ipv6ToBigInt(address: string): bigint | undefined {
  let text = address.toLowerCase();
  if (!text.includes(':') || !/^[0-9a-f:.]+$/.test(text)) return undefined;
  if (text.includes('.')) {
    // An embedded IPv4 tail (::ffff:10.0.0.1) counts as the last two groups.
    const lastColon = text.lastIndexOf(':');
    const v4 = ipv4ToBigInt(text.slice(lastColon + 1));
    if (v4 === undefined) return undefined;
    text = `${text.slice(0, lastColon)}:${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const head = halves[0] ? halves[0].split(':') : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...tail];
  if (!groups.every((g) => /^[0-9a-f]{1,4}$/.test(g))) return undefined;
  return groups.reduce((acc, g) => (acc << 16n) + BigInt(parseInt(g, 16)), 0n);
}

function bigIntToIpv6(value: bigint): string {
  const groups = Array.from({ length: 8 }, (_, i) => Number((value >> BigInt(16 * (7 - i))) & 0xffffn).toString(16));
  // Collapse the longest run of two or more zero groups (RFC 5952).
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

// Benchmark suites and the flags of a custom run.
export * from './benchmark-flags.js';
export * from './benchmark-commands.js';
export * from './benchmark-encryption.js';
export * from './benchmark-report-charts.js';
export * from './type-report-document.js';
export * from './topology-rules.js';
export * from './metrics-rules.js';
export * from './backup-rules.js';
export * from './data-browser-rules.js';
export * from './command-line.js';
