// A new user's first instance, end to end, in Debian's Chromium against the whole platform as
// `npm start` runs it (API, worker, console; real Terraform, Ansible and a local VM): log in,
// create an instance from the form, watch it reach Running and Healthy on its page, connect
// with redis-cli as the user with the password shown once, and delete it from the console.
import { execFileSync } from 'node:child_process';
import type { BasaltClient } from '@basalt/api-client';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { startConsole, type ConsoleSession } from './support/console.js';
import { deleteInstanceAndWait } from './support/instance.js';
import { snap } from './support/screenshots.js';

let ui: ConsoleSession;
let platform: ConsoleSession['platform'];
let page: Page;
let api: BasaltClient;
let projectId = '';
let instanceId = '';
let password = '';
const name = `first-${Date.now().toString(36)}`;

beforeAll(async () => {
  // Not logged in: the first test signs in as a new user would.
  ui = await startConsole({ worker: true, logIn: false });
  ({ platform, page, api } = ui);
});

afterEach(() => ui.checkPageErrors());

afterAll(async () => {
  // A VM left behind would outlive the test: delete it if the test did not, and wait for it.
  if (instanceId && projectId) await deleteInstanceAndWait(api, projectId, instanceId);
  await ui?.stop();
}, 300_000);

describe('the first instance, from the console', () => {
  test('is created from the form and reaches Running and Healthy', async () => {
    await page.goto('/');
    await page.getByLabel('E-mail').fill(platform.admin.email);
    await page.getByLabel('Password').fill(platform.admin.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/projects\/[^/]+\/instances$/);
    projectId = page.url().split('/')[4]!;
    await page.getByRole('link', { name: 'Create instance' }).first().click();
    await page.getByLabel('Instance name').fill(name);
    await page.getByRole('radio', { name: /kv\.standard\.small, 1 vCPU, 2 GiB memory/ }).check();
    await page.getByRole('button', { name: 'Create instance' }).click();
    const secret = page.getByRole('region', { name: 'Default user password' });
    await secret.waitFor();
    password = (await secret.getByLabel('Password', { exact: true }).textContent())!.trim();

    await page.getByRole('link', { name: 'Instances' }).first().click();
    await page.getByRole('link', { name }).click();
    await page.getByRole('heading', { name, level: 1 }).waitFor();
    instanceId = page.url().split('/')[6]!;
    const started = Date.now();
    await page.getByLabel('Status: Running').first().waitFor({ timeout: 240_000 });
    await page.getByLabel('Health: Healthy').first().waitFor({ timeout: 30_000 });
    console.log(`console create -> Running: ${((Date.now() - started) / 1000).toFixed(1)} s`);
    await snap(page, 'first-instance-running');
  }, 300_000);

  test('answers redis-cli as the default user with the password shown once', async () => {
    const instance = (await api.GET('/v1/projects/{project}/instances/{instance}', { params: { path: { project: projectId, instance: instanceId } } })).data!;
    const endpoint = instance.endpoints[0]!;
    await page.getByText(`${endpoint.host}:${endpoint.port}`).first().waitFor();
    const cli = (...args: string[]) =>
      execFileSync('redis-cli', ['-h', endpoint.host, '-p', String(endpoint.port), '--user', 'default', '--pass', password, '--no-auth-warning', ...args], { encoding: 'utf8', timeout: 10_000 }).trim();
    expect(cli('SET', 'greeting', 'hello')).toBe('OK');
    expect(cli('GET', 'greeting')).toBe('hello');
  });

  test('is deleted from the console, and its VM is gone', async () => {
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: `Delete ${name}?` });
    await dialog.getByLabel(`Type ${name} to confirm`).fill(name);
    await dialog.getByRole('button', { name: 'Delete instance' }).click();
    await page.waitForURL(/\/instances$/);
    const path = { params: { path: { project: projectId, instance: instanceId } } };
    await expect.poll(async () => (await api.GET('/v1/projects/{project}/instances/{instance}', path)).data?.status, { timeout: 240_000, interval: 1000 }).toBe('deleted');
  }, 300_000);
});
