// The instances list with more instances than one page: the API pages with a cursor and
// filters by name; the console asks for the next page on demand and sends the filter to the
// API rather than filtering what it happens to have loaded.
import type { BasaltClient } from '@basalt/api-client';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { startConsole, type ConsoleSession } from './support/console.js';

const COUNT = 57; // more than the console's page of 50

let ui: ConsoleSession;
let page: Page;
let api: BasaltClient;
let projectId: string;

beforeAll(async () => {
  // More instances than the default quota of a project (20): this test is about pages.
  ui = await startConsole({ env: { BASALT_QUOTA_INSTANCES: String(COUNT), BASALT_QUOTA_VCPU: String(COUNT) } });
  ({ page, api, projectId } = ui);
  for (let i = 0; i < COUNT; i++) {
    const res = await api.POST('/v1/projects/{project}/instances', {
      params: { path: { project: projectId } },
      body: { name: `bulk-${String(i).padStart(2, '0')}`, instance_type: 'kv.standard.small', region: 'local', engine_version: '1.0', tls_enabled: false, deletion_protection: false },
    });
    if (res.response.status !== 202) throw new Error(`create bulk-${i}: HTTP ${res.response.status}`);
  }
  await page.reload(); // the list was loaded at login, before the instances existed
});

afterEach(() => ui.checkPageErrors());

afterAll(async () => {
  await ui?.stop();
});

const dataRows = () => page.getByRole('table', { name: 'Instances' }).getByRole('row').filter({ has: page.getByRole('link') });

describe('instances list', () => {
  test('shows the newest page first and loads the rest on demand', async () => {
    await page.getByRole('link', { name: `bulk-${COUNT - 1}` }).waitFor();
    expect(await dataRows().count()).toBe(50);
    expect(await page.getByRole('link', { name: 'bulk-00', exact: true }).count()).toBe(0);
    await page.getByRole('button', { name: 'Load more instances' }).click();
    await page.getByRole('link', { name: 'bulk-00', exact: true }).waitFor();
    expect(await dataRows().count()).toBe(COUNT);
    expect(await page.getByRole('button', { name: 'Load more instances' }).count()).toBe(0);
  });

  test('filters by name on the server, including instances not loaded yet', async () => {
    await page.reload();
    await page.getByRole('link', { name: `bulk-${COUNT - 1}` }).waitFor();
    const requested = page.waitForRequest((req) => new URL(req.url()).searchParams.get('name') === 'bulk-0');
    await page.getByLabel('Filter instances by name').fill('bulk-0');
    await requested;
    await expect.poll(() => dataRows().count()).toBe(10);
    await expect(dataRows().getByRole('link').allTextContents()).resolves.toEqual(
      Array.from({ length: 10 }, (_, i) => `bulk-0${9 - i}`),
    );
    await page.getByLabel('Filter instances by name').fill('no-such-instance');
    await page.getByText('No instance name contains “no-such-instance”.').waitFor();
  });
});
