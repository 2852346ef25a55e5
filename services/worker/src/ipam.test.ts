import { describe, expect, it } from 'vitest';
import { hostAddresses } from '@basalt/db';
import { nodeNames, poolNetwork } from './ipam.js';

describe('region address pool', () => {
  it('lists host addresses without the network and broadcast address', () => {
    expect([...hostAddresses('10.77.0.0/29')]).toEqual([
      '10.77.0.1',
      '10.77.0.2',
      '10.77.0.3',
      '10.77.0.4',
      '10.77.0.5',
      '10.77.0.6',
    ]);
  });

  it('masks a CIDR written with host bits', () => {
    expect(hostAddresses('192.168.5.77/24').next().value).toBe('192.168.5.1');
  });

  it('takes the first host address as the gateway', () => {
    expect(poolNetwork('10.77.0.0/16')).toEqual({ cidr: '10.77.0.0/16', gateway: '10.77.0.1', prefixLength: 16 });
  });

  it('refuses what is not an IPv4 CIDR', () => {
    expect(() => hostAddresses('10.77.0.0').next()).toThrow(/not an IPv4 CIDR/);
    expect(() => hostAddresses('300.1.1.1/24').next()).toThrow(/unsupported CIDR/);
  });

  it('names nodes after the instance', () => {
    expect(nodeNames('abc', 2)).toEqual(['abc-0', 'abc-1']);
  });
});

describe('allowlist membership', () => {
  it('finds an address in its CIDR and not outside', async () => {
    const { cidrContains, allowlistAdmits } = await import('./ipam.js');
    expect(cidrContains('10.77.0.0/16', '10.77.3.4')).toBe(true);
    expect(cidrContains('10.77.0.0/16', '10.78.0.1')).toBe(false);
    expect(cidrContains('10.77.0.1', '10.77.0.1')).toBe(true);
    expect(cidrContains('0.0.0.0/0', '192.0.2.1')).toBe(true);
    expect(cidrContains('2001:db8::/32', '10.77.0.1')).toBe(false);
    expect(allowlistAdmits([], '10.77.0.1')).toBe(true);
    expect(allowlistAdmits(['192.0.2.0/24'], '10.77.0.1')).toBe(false);
  });
});
