// Backups and a point-in-time restore in the console, in Chromium against the whole platform
// (API, the real worker with a local VM, the stack's own backup store, console): a key written,
// "Back up now" followed to `succeeded` in the Backups tab, a second key written a whole second
// later; once the restorable window's latest point has passed the second write, "Restore to a
// point in time" between the two creates a new instance from the console, whose page shows its
// password once; the new instance runs and holds the first key and not the second. Before
// that, "Export as RDB" on the backup turns into a download link, and the file the browser
// downloads is an RDB 10 dump holding the first key.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BasaltClient, Schemas } from '@basalt/api-client';
import { Redis } from 'ioredis';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { startConsole, type ConsoleSession } from './support/console.js';
import { createRunningInstance, deleteInstanceAndWait } from './support/instance.js';
import { snap } from './support/screenshots.js';

type Instance = Schemas['InstanceDetailDto'];

let ui: ConsoleSession;
let page: Page;
let projectId: string;
let api: BasaltClient;
let source: Instance;
let sourcePassword = '';
let restoredId = '';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One command on a fresh connection as `default`. */
async function withRedis<T>(instance: Instance, password: string, run: (client: Redis) => Promise<T>): Promise<T> {
  const { host, port } = instance.endpoints[0]!;
  const client = new Redis({ host, port, username: 'default', password, lazyConnect: true, maxRetriesPerRequest: 1 });
  await client.connect();
  try {
    return await run(client);
  } finally {
    client.disconnect();
  }
}

async function instanceOf(id: string): Promise<Instance> {
  return (await api.GET('/v1/projects/{project}/instances/{instance}', { params: { path: { project: projectId, instance: id } } })).data!;
}

beforeAll(async () => {
  ui = await startConsole({ worker: true, objectStore: true });
  ({ page, api, projectId } = ui);
}, 120_000);

afterEach(() => ui.checkPageErrors());

afterAll(async () => {
  // No VM outlives the test.
  await Promise.all([source && deleteInstanceAndWait(api, projectId, source.id), restoredId && deleteInstanceAndWait(api, projectId, restoredId)]);
  await ui?.stop();
}, 300_000);

describe('backups and a point-in-time restore in the console', () => {
  test('back up now, then restore between two writes: the new instance holds the first and not the second', async () => {
    ({ instance: source, password: sourcePassword } = await createRunningInstance(api, projectId, 'orders'));
    await withRedis(source, sourcePassword, (r) => r.set('first', 'before-the-point'));

    await page.goto(`/projects/${projectId}/instances/${source.id}`);
    await page.getByRole('tab', { name: 'Backups' }).click();
    await page.getByText('Nothing to restore yet').waitFor();
    await page.getByRole('button', { name: 'Back up now' }).click();
    await page.getByRole('region', { name: /Operation progress/ }).getByRole('heading', { name: 'Operation progress · backup' }).waitFor();
    const row = page.getByRole('table', { name: 'Backups' }).getByRole('row').nth(1);
    await row.getByText('succeeded', { exact: true }).waitFor({ timeout: 120_000 });
    await row.getByText('Manual', { exact: true }).waitFor();
    await row.getByText('Kept until deleted').waitFor();
    const [backup] = (await api.GET('/v1/projects/{project}/instances/{instance}/backups', { params: { path: { project: projectId, instance: source.id } } })).data!.items;
    expect(backup).toMatchObject({ status: 'succeeded', kind: 'manual' });
    expect(backup!.segments).toBeGreaterThan(0);

    // Export as RDB, then the download link; the browser's file is the dump.
    await row.getByRole('button', { name: /^Export the backup of .* as RDB$/ }).click();
    const link = row.getByRole('link', { name: /^Download the RDB file of the backup of / });
    await link.waitFor({ timeout: 120_000 });
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    const saved = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'basalt-rdb-dl-')), 'dump.rdb');
    await download.saveAs(saved);
    const dump = fs.readFileSync(saved);
    fs.rmSync(path.dirname(saved), { recursive: true, force: true });
    expect(download.suggestedFilename()).toMatch(/\.rdb$/);
    expect(dump.subarray(0, 9).toString()).toBe('REDIS0010');
    expect(dump.includes(Buffer.from('before-the-point'))).toBe(true);

    // The point: the first whole second after the backup's end, with the second write after it.
    const point = Math.floor(Date.parse(backup!.end_time!) / 1000) * 1000 + 1000;
    await sleep(Math.max(0, point + 1100 - Date.now()));
    await withRedis(source, sourcePassword, (r) => r.set('second', 'after-the-point'));
    const secondAt = Date.now();

    // The window's latest point follows the archive: wait until it is past the second write.
    await expect
      .poll(async () => {
        const { data } = await api.GET('/v1/projects/{project}/instances/{instance}/restore-window', { params: { path: { project: projectId, instance: source.id } } });
        return data?.latest ? Date.parse(data.latest) : 0;
      }, { timeout: 30_000, interval: 500 })
      .toBeGreaterThanOrEqual(Math.floor(secondAt / 1000) * 1000);
    await page.getByLabel('Latest restorable point').waitFor();
    // One timeline, no failover: the card says there is no gap.
    await page.getByLabel('Restore gaps').getByText(/^None/).waitFor();
    await snap(page, '17-backups');

    await page.getByRole('button', { name: 'Restore to a point in time' }).click();
    const dialog = page.getByRole('dialog', { name: 'Restore to a point in time' });
    await dialog.getByLabel('Point in time (UTC)').fill(new Date(point).toISOString().slice(0, 19));
    await dialog.getByLabel('New instance name').fill('orders-at-point');
    await expect(dialog.getByRole('combobox', { name: 'Instance type' }).textContent()).resolves.toContain(source.instance_type);
    await dialog.getByRole('button', { name: 'Create restored instance' }).click();

    await page.waitForURL((url) => url.pathname.startsWith(`/projects/${projectId}/instances/`) && !url.pathname.endsWith(source.id));
    restoredId = page.url().split('/').pop()!;
    const secret = page.getByRole('region', { name: 'Password of default' });
    const password = (await secret.getByLabel('Password of default', { exact: true }).textContent())!.trim();
    const restored = await instanceOf(restoredId);
    expect(restored.restored_from).toEqual({ source_instance_id: source.id, point_in_time: new Date(point).toISOString().replace('.000Z', 'Z') });
    await page.getByLabel('Status: Running').first().waitFor({ timeout: 240_000 });
    await snap(page, '18-restored-instance');

    const running = await instanceOf(restoredId);
    const [first, second] = await withRedis(running, password, (r) => r.mget('first', 'second'));
    expect(first).toBe('before-the-point');
    expect(second).toBeNull();
  }, 420_000);
});
