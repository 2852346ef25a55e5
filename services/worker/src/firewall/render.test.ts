// The rendered rules, read as text and checked by nft itself (`nft -c` parses and validates a
// script against the kernel without applying it) where nft runs here.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { FirewallInputError, allowlistNetworks, instanceIdOfTable, renderApply, renderReleaseAddresses, renderRemove, tableName } from './render.js';
import { listNodeSets, listTables, runNftScript } from './nft.js';

const ID = '0b7c6a4e-1d2f-4a3b-9c8d-7e6f5a4b3c2d';
const base = { instanceId: ID, bridge: 'basalt0', addresses: ['10.77.3.4', '10.77.3.5', '10.77.3.6'], allowlist: ['10.77.200.0/24', '192.168.1.7'] };

function nftUsable(): boolean {
  try {
    execFileSync('nft', ['list', 'tables'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe('tenant firewall rendering', () => {
  it('names both tables for the instance and only for it', () => {
    const script = renderApply(base);
    expect(tableName(ID)).toBe('basalt_0b7c6a4e1d2f4a3b9c8d7e6f5a4b3c2d');
    expect(instanceIdOfTable(tableName(ID))).toBe(ID);
    expect(instanceIdOfTable('filter')).toBeUndefined();
    expect(script).toContain(`table bridge ${tableName(ID)} {`);
    expect(script).toContain(`table inet ${tableName(ID)} {`);
    // Never the whole ruleset, never another table.
    expect(script).not.toMatch(/flush ruleset|delete table (?!(bridge|inet) basalt_0b7c6a4e)/);
  });

  it('admits the allowlist on the engine ports only, and drops everything else of the nodes', () => {
    const script = renderApply(base);
    expect(script).toContain('elements = { 10.77.3.4, 10.77.3.5, 10.77.3.6 }');
    expect(script).toContain('elements = { 10.77.200.0/24, 192.168.1.7/32 }');
    expect(script).toContain('ip daddr @nodes ip saddr @allowlist tcp dport { 6379, 6380, 11211 } accept comment "clients-from-allowlist"');
    expect(script).toContain('ip saddr @nodes ip daddr @allowlist tcp sport { 6379, 6380, 11211 } tcp flags & (syn | ack) != syn accept');
    expect(script).toContain('ip saddr @nodes ip daddr @nodes accept comment "own-nodes"');
    expect(script).toContain('ip daddr @nodes tcp dport { 22 } accept comment "control-plane-ssh"');
    expect(script).toContain('ip daddr @nodes tcp dport { 9121 } accept comment "metrics-scrape"');
    expect(script).toContain('ip saddr @nodes drop comment "egress: nothing else"');
    expect(script).toContain('ip saddr @nodes drop comment "to the host: nothing else"');
    expect(script).toContain('ip saddr @nodes oifname != "basalt0" drop comment "not off the machine"');
  });

  it('reads an empty allowlist as everyone, and an IPv6-only one as no IPv4 client', () => {
    expect(renderApply({ ...base, allowlist: [] })).toContain('ip daddr @nodes tcp dport { 6379, 6380, 11211 } accept comment "clients-from-allowlist"');
    const v6only = renderApply({ ...base, allowlist: ['2001:db8::/32'] });
    expect(v6only).not.toContain('clients-from-allowlist');
    expect(allowlistNetworks(['2001:db8::/32', '10.0.0.0/8', '10.1.2.3'])).toEqual(['10.0.0.0/8', '10.1.2.3/32']);
  });

  it('keeps customer-typed strings data: a payload is refused, never rendered', () => {
    for (const entry of ['10.0.0.0/8; flush ruleset', '10.0.0.0/8 } accept; chain x {', '10.0.0.0/8\nflush ruleset', '"10.0.0.0/8"']) {
      expect(() => renderApply({ ...base, allowlist: [entry] })).toThrow(FirewallInputError);
    }
    expect(() => renderApply({ ...base, addresses: ['10.77.3.4; flush ruleset'] })).toThrow(FirewallInputError);
    expect(() => renderApply({ ...base, bridge: 'basalt0"; flush' })).toThrow(FirewallInputError);
    expect(() => renderApply({ ...base, instanceId: 'x; flush ruleset' })).toThrow(FirewallInputError);
  });

  it.runIf(nftUsable())('renders scripts nft accepts, overlapping allowlist entries too', async () => {
    await runNftScript(renderApply({ ...base, allowlist: ['10.0.0.0/8', '10.1.0.0/16', '10.1.2.3'] }), { check: true });
    await runNftScript(renderApply({ ...base, allowlist: [], addresses: [] }), { check: true });
    await runNftScript(renderRemove(ID), { check: true });
  });

  it.runIf(nftUsable())('applies and removes idempotently, touching only its own tables', async () => {
    const id = 'ffffffff-0000-4000-8000-00000000f43a';
    const before = { bridge: await listTables('bridge'), inet: await listTables('inet') };
    try {
      // Twice: a rerun after a worker was killed mid-way replaces the tables whole.
      await runNftScript(renderApply({ ...base, instanceId: id }));
      await runNftScript(renderApply({ ...base, instanceId: id, allowlist: [] }));
      expect(await listTables('bridge')).toContain(tableName(id));
      expect(await listTables('inet')).toContain(tableName(id));
      const rules = execFileSync('nft', ['list', 'table', 'bridge', tableName(id)], { encoding: 'utf8' });
      expect(rules).not.toContain('@allowlist tcp dport');
    } finally {
      await runNftScript(renderRemove(id));
      await runNftScript(renderRemove(id));
    }
    expect(await listTables('bridge')).not.toContain(tableName(id));
    // Every other tool's table is still there (instances' tables come and go with tests beside this one).
    const others = (tables: string[]) => tables.filter((t) => !t.startsWith('basalt_'));
    expect(others(await listTables('bridge'))).toEqual(others(before.bridge));
    expect(others(await listTables('inet'))).toEqual(others(before.inet));
  });

  it.runIf(nftUsable())("takes an address out of a stale table and leaves the table's other addresses", async () => {
    const stale = 'ffffffff-0000-4000-8000-00000000f43b';
    try {
      await runNftScript(renderApply({ ...base, instanceId: stale, addresses: ['10.77.254.201', '10.77.254.202'] }));
      await runNftScript(renderReleaseAddresses('bridge', tableName(stale), ['10.77.254.201']));
      const sets = (await listNodeSets('bridge')).filter((set) => set.table === tableName(stale));
      expect(sets).toEqual([{ table: tableName(stale), addresses: ['10.77.254.202'] }]);
    } finally {
      await runNftScript(renderRemove(stale));
    }
    expect(() => renderReleaseAddresses('bridge', 'filter', ['10.77.254.201'])).toThrow(FirewallInputError);
    expect(() => renderReleaseAddresses('bridge', tableName(stale), ['10.77.254.201 }; flush ruleset'])).toThrow(FirewallInputError);
  });
});
