import { describe, expect, it } from 'vitest';
import { hostAddresses } from '@basalt/db';
import { allocationPool, cidrWithin, nodeNames, poolNetwork } from './ipam.js';
import { loadConfig } from './config.js';

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

describe("a control plane's range of the pool (BASALT_ADDRESS_RANGE)", () => {
  it('is a CIDR inside the pool', () => {
    expect(cidrWithin('10.77.0.0/16', '10.77.64.0/24')).toBe(true);
    expect(cidrWithin('10.77.0.0/16', '10.77.0.0/16')).toBe(true);
    expect(cidrWithin('10.77.0.0/16', '10.78.64.0/24')).toBe(false);
    expect(cidrWithin('10.77.0.0/16', '10.76.0.0/15')).toBe(false);
    expect(cidrWithin('10.77.0.0/16', '10.77.64.1')).toBe(false);
    expect(cidrWithin('10.77.0.0/16', 'x')).toBe(false);
  });

  it('replaces the pool for region local only, and only when given', () => {
    const local = { target: 'local', addressPool: '10.77.0.0/16' };
    expect(allocationPool('10.77.64.0/24', local)).toBe('10.77.64.0/24');
    expect(allocationPool(undefined, local)).toBe('10.77.0.0/16');
    expect(allocationPool('10.77.64.0/24', { target: 'aws', addressPool: '10.0.0.0/16' })).toBe('10.0.0.0/16');
  });

  it('is refused at start when it lies outside the pool', () => {
    const env = { DATABASE_URL: 'postgres://x@127.0.0.1/x', BASALT_MASTER_KEY: Buffer.alloc(32, 1).toString('base64') };
    expect(loadConfig({ ...env, BASALT_ADDRESS_RANGE: '10.77.70.0/24' }).addressRange).toBe('10.77.70.0/24');
    expect(loadConfig(env).addressRange).toBeUndefined();
    expect(() => loadConfig({ ...env, BASALT_ADDRESS_RANGE: '192.168.0.0/24' })).toThrow(/BASALT_ADDRESS_RANGE must be a CIDR inside/);
  });
});
