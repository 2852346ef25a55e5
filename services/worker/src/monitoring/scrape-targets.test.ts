import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { InstanceRow } from '@basalt/db';
import { targetGroupsOf, targetsFile } from './scrape-targets.js';
import { ensureScrapeToken, scrapeTokenHash } from './scrape-token.js';
import { unscrapedReason } from './scrape-health.js';
import { verdictOf } from '../health-monitor.js';
import { adminPortVars } from './admin-port-vars.js';

const ID = '3f2b8c1e-0000-4000-8000-000000000001';
const PROJECT = '3f2b8c1e-0000-4000-8000-0000000000aa';

function instance(status: InstanceRow['status'], ips: string[]): InstanceRow {
  const nodes = ips.map((ip, i) => ({ name: `${ID}-${i}`, role: i === 0 ? 'primary' : 'replica', status: 'running', private_ip: ip }));
  return { id: ID, projectId: PROJECT, status, nodes } as unknown as InstanceRow;
}

describe('scrape targets', () => {
  it('lists every reachable node of a running instance with the labels the API selects on', async () => {
    const groups = await targetGroupsOf(instance('running', ['10.77.0.5', '10.77.0.6', '192.0.2.1']), async (ip) => ip.startsWith('10.77.'));
    expect(groups).toEqual([
      { targets: ['10.77.0.5:9121'], labels: { basalt_instance: ID, basalt_project: PROJECT, basalt_node: `${ID}-0`, basalt_role: 'primary' } },
      { targets: ['10.77.0.6:9121'], labels: { basalt_instance: ID, basalt_project: PROJECT, basalt_node: `${ID}-1`, basalt_role: 'replica' } },
    ]);
  });

  it('lists nothing for an instance that is not running (its file goes)', async () => {
    for (const status of ['creating', 'deleting', 'deleted', 'create_failed'] as const) {
      expect(await targetGroupsOf(instance(status, ['10.77.0.5']), async () => true)).toEqual([]);
    }
  });

  it('names files by instance id only', () => {
    expect(targetsFile('/sd', ID)).toBe(`/sd/targets/${ID}.json`);
    expect(() => targetsFile('/sd', '../x')).toThrow(/not an instance id/);
  });
});

describe('scrape token', () => {
  it('is made once, 0600, and nodes get its SHA-256 only', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'basalt-sd-'));
    const token = ensureScrapeToken(dir);
    expect(ensureScrapeToken(dir)).toBe(token);
    expect(fs.statSync(path.join(dir, 'scrape-token')).mode & 0o777).toBe(0o600);
    const vars = adminPortVars({ prometheusUrl: 'http://127.0.0.1:1', sdDir: dir });
    expect(vars).toEqual({ engine_admin_port: 9121, engine_admin_token_sha256: scrapeTokenHash(token) });
    expect(JSON.stringify(vars)).not.toContain(token);
    expect(adminPortVars(undefined)).toEqual({ engine_admin_port: 0 });
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe('health and metrics agree', () => {
  const ok = [{ endpoint: '10.77.0.5:6379', ok: true, ms: 2 }];
  it('an answering instance whose metrics are missing for a minute is degraded', () => {
    const reason = unscrapedReason(new Map([['n-0', false]]), 0);
    expect(reason).toBe('no metrics scraped from n-0 for a minute');
    expect(verdictOf(ok, () => 0, reason)).toEqual({ health: 'degraded', reason });
    expect(unscrapedReason(new Map([['n-0', true]]), 0)).toBeNull();
  });
  it('a target Prometheus has not discovered counts only after a grace period', () => {
    const now = 1_000_000;
    expect(unscrapedReason(undefined, now - 10_000, now)).toBeNull();
    expect(unscrapedReason(undefined, now - 120_000, now)).toBe('Prometheus has no scrape target for it');
  });
});
