// Issue 15 in the console, in Debian's Chromium against the whole platform (API, worker,
// console; real Terraform, Ansible and local VMs): a standard instance is created from the form
// (architecture, replicas, replication mode), and its page shows the primary and the replica
// running, the primary and read-only endpoints, and the replication mode.
import type { BasaltClient } from '@basalt/api-client';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { startConsole, type ConsoleSession } from '../browser/support/console.js';
import { snap } from '../browser/support/screenshots.js';
import { deleteInstanceAndWait } from '../browser/support/instance.js';

let ui: ConsoleSession;
let page: Page;
let api: BasaltClient;
let projectId = '';
let instanceId = '';
const name = `ha-${Date.now().toString(36)}`;

beforeAll(async () => {
  ui = await startConsole({ worker: true });
  ({ page, api, projectId } = ui);
});

afterEach(() => ui.checkPageErrors());

afterAll(async () => {
  if (instanceId) await deleteInstanceAndWait(api, projectId, instanceId);
  await ui?.stop();
}, 300_000);

describe('a standard instance from the console', () => {
  test('is created with a replica and async replication, and its page shows the nodes and endpoints', async () => {
    await page.getByRole('link', { name: 'Create instance' }).first().click();
    await page.getByLabel('Instance name').fill(name);
    await page.getByRole('radio', { name: /kv\.standard\.small, 1 vCPU, 2 GiB memory/ }).check();
    await page.getByRole('combobox', { name: 'Architecture' }).click();
    await page.getByRole('option', { name: /^Standard/ }).click();
    await page.getByRole('combobox', { name: 'Replication' }).click();
    await page.getByRole('option', { name: /^async/ }).click();
    await snap(page, 'ha-create-form');
    await page.getByRole('button', { name: 'Create instance' }).click();
    await page.getByRole('region', { name: 'Default user password' }).waitFor();

    await page.getByRole('link', { name: 'Instances' }).first().click();
    await page.getByRole('link', { name }).click();
    await page.getByRole('heading', { name, level: 1 }).waitFor();
    instanceId = page.url().split('/')[6]!;
    await page.getByLabel('Status: Running').first().waitFor({ timeout: 300_000 });

    const instance = (await api.GET('/v1/projects/{project}/instances/{instance}', { params: { path: { project: projectId, instance: instanceId } } })).data!;
    expect(instance).toMatchObject({ architecture: 'standard', replicas: 1, parameters: { replication_mode: 'async' } });
    const nodes = page.getByRole('table', { name: 'Nodes' });
    for (const node of instance.nodes) {
      const row = nodes.getByRole('row').filter({ hasText: node.name });
      await expect.poll(() => row.textContent()).toContain(node.role);
      await expect.poll(() => row.textContent()).toContain('running');
    }
    const endpoints = page.getByRole('table', { name: 'Endpoints' });
    await endpoints.getByRole('row').filter({ hasText: 'Primary (read-write)' }).filter({ hasText: instance.endpoints.find((e) => e.role === 'primary')!.host }).waitFor();
    await endpoints.getByRole('row').filter({ hasText: 'Read-only (replica)' }).filter({ hasText: instance.endpoints.find((e) => e.role === 'readonly')!.host }).waitFor();
    await page.getByText('Standard — primary and 1 replica').waitFor();
    await snap(page, 'ha-instance-nodes');
  }, 420_000);
});
