import { describe, expect, it } from 'vitest';
import { DB_USERNAME, isTags, normaliseCidr, parseCidr, TAG_KEY } from '../src/rules.js';

describe('allowlist CIDRs (API, console and worker use this one parser)', () => {
  it('normalises IPv4 and IPv6, a bare address meaning one host', () => {
    expect(normaliseCidr(' 10.0.0.0/8 ')).toBe('10.0.0.0/8');
    expect(normaliseCidr('192.0.2.7')).toBe('192.0.2.7/32');
    expect(normaliseCidr('2001:DB8:0:0::/32')).toBe('2001:db8::/32');
    expect(normaliseCidr('::1')).toBe('::1/128');
  });

  it('refuses host bits, bad octets, bad prefixes and junk', () => {
    for (const bad of ['10.0.0.1/8', '256.0.0.0/8', '010.0.0.0/8', '10.0.0.0/33', '10.0.0.0/-1', '10.0.0.0/8/8', '1:2:3:4:5:6:7:8:9/128', 'x', '', '10.0.0.0/08a']) {
      expect(normaliseCidr(bad), bad).toBeUndefined();
    }
  });

  it('refuses IPv4-mapped IPv6, which no IPv4 client would ever match, and says what to write', () => {
    expect(parseCidr('::ffff:10.0.0.0/104')).toEqual({ error: expect.stringContaining('10.0.0.0/8') });
    expect(parseCidr('::ffff:192.0.2.7')).toEqual({ error: expect.stringContaining('192.0.2.7/32') });
    expect(normaliseCidr('::ffff:0:0/96')).toBeUndefined();
    expect(normaliseCidr('::/0')).toBe('::/0');
  });
});

describe('names and tags', () => {
  it('keeps `=` out of tag keys (the console writes tags as key=value lines)', () => {
    expect(TAG_KEY.test('team')).toBe(true);
    expect(TAG_KEY.test('a=b')).toBe(false);
    expect(isTags({ 'k8s.io/app': 'x', 'a@b+c:d': '' })).toBe(true);
    expect(isTags({ 'a=b': 'x' })).toBe(false);
    expect(isTags({ a: 'x'.repeat(257) })).toBe(false);
  });

  it('keeps `:` out of usernames, so the control plane user cannot be taken', () => {
    expect(DB_USERNAME.test('app.reader-1')).toBe(true);
    expect(DB_USERNAME.test('basalt:control-plane')).toBe(false);
    expect(DB_USERNAME.test('a b')).toBe(false);
  });
});
