// An instance's life in the console, in Chromium against the real API and console. The
// instance is created through the API; its operation advances the way the worker advances it —
// rows and events written through @basalt/db's ProvisioningRepository, the repository the
// worker uses. The page follows over Server-Sent Events (through the console's /v1 proxy):
// steps and percentage, then `running` with endpoints and the redis-cli command. On the
// running instance: database users, the allowlist, a resize and a restart. (Benchmarks run
// only through the real worker: e2e/provisioning/benchmark.test.ts.) A failed create shows its step and message.
import type { BasaltClient } from '@basalt/api-client';
import { createDatabase, ProvisioningRepository, type Database } from '@basalt/db';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { launchChromium } from './support/browser.js';
import { collectPageErrors } from './support/page-errors.js';
import { startConsolePlatform, type ConsolePlatform } from './support/platform.js';
import { snap } from './support/screenshots.js';
import { apiSession, logInThroughForm } from './support/session.js';

const STEPS = ['allocate_addresses', 'terraform_apply', 'ansible_deploy', 'health_check'];

let platform: ConsolePlatform;
let database: Database;
let worker: ProvisioningRepository;
let browser: Browser;
let page: Page;
let pageErrors: string[] = [];
let projectId: string;
let api: BasaltClient;
let runningInstanceId = '';

beforeAll(async () => {
  platform = await startConsolePlatform();
  database = createDatabase(platform.databaseUrl, { max: 2 });
  worker = new ProvisioningRepository(database.db, database.pool);
  ({ api, projectId } = await apiSession(platform.apiUrl, platform.admin));
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1440, height: 900 }, baseURL: platform.consoleUrl });
  pageErrors = collectPageErrors(page);
  page.setDefaultTimeout(20_000);
  await logInThroughForm(page, platform.admin);
});

afterEach(() => {
  expect(pageErrors.splice(0)).toEqual([]);
});

afterAll(async () => {
  await browser?.close();
  await database?.close();
  await platform?.stop();
});

async function createInstance(name: string) {
  const created = await api.POST('/v1/projects/{project}/instances', {
    params: { path: { project: projectId } },
    body: { name, instance_type: 'kv.standard.small', region: 'local', engine_version: '1.0', tls_enabled: false, deletion_protection: false },
  });
  expect(created.response.status).toBe(202);
  return { id: created.data!.instance.id, operationId: created.data!.operation!.id, password: created.data!.default_user.password };
}

/** What the worker's OperationRun writes when a step starts or ends. */
async function step(operationId: string, index: number, status: 'running' | 'succeeded' | 'failed', message?: string) {
  const steps = STEPS.map((name, i) => ({ name, status: i < index ? 'succeeded' : i === index ? status : 'pending' }));
  const done = steps.filter((s) => s.status === 'succeeded').length;
  await worker.updateOperation(operationId, { status: 'running', steps, progress: Math.min(99, Math.floor((done / STEPS.length) * 100)) });
  const kind = status === 'running' ? 'step_started' : status === 'succeeded' ? 'step_succeeded' : 'step_failed';
  await worker.addEvent(operationId, { kind, step: STEPS[index], message: message ?? `${STEPS[index]} ${status === 'running' ? 'started' : status}` });
}

const progressCard = () => page.getByRole('region', { name: /Operation progress/ });

describe('live operation progress', () => {
  test('the page follows a create step by step and ends running with its endpoint', async () => {
    const { id, operationId, password } = await createInstance('sessions-cache');
    runningInstanceId = id;
    await page.goto(`/projects/${projectId}/instances/${id}`);
    await progressCard().getByText('Current step: Waiting for a worker').waitFor();
    await progressCard().getByText('Live').waitFor();

    await worker.updateOperation(operationId, { status: 'running', startedAt: new Date() });
    await step(operationId, 0, 'running');
    await progressCard().getByText('Current step: allocate addresses').waitFor();
    await step(operationId, 0, 'succeeded');
    await step(operationId, 1, 'running');
    await worker.addEvent(operationId, { kind: 'terraform', step: 'terraform_apply', message: 'module.vm.null_resource.this: Creating...' });
    await progressCard().getByText('Current step: terraform apply').waitFor();
    await progressCard().getByText('module.vm.null_resource.this: Creating...').waitFor();
    await progressCard().getByText('25%').waitFor();
    const steps = progressCard().getByRole('list', { name: 'Steps' });
    await expect(steps.getByRole('listitem').allTextContents()).resolves.toEqual([
      'allocate addresses: succeeded',
      'terraform apply: running',
      'ansible deploy: pending',
      'health check: pending',
    ]);
    await snap(page, '10-operation-in-progress');

    for (let i = 1; i < STEPS.length; i++) {
      if (i > 1) await step(operationId, i, 'running');
      await step(operationId, i, 'succeeded');
    }
    await progressCard().getByText('99%').waitFor(); // all steps done; 100 only when the operation is
    // The worker's last writes: the instance is up with its endpoint, the operation succeeded.
    await worker.updateInstance(id, {
      status: 'running',
      health: 'healthy',
      nodes: [{ name: 'node-0', private_ip: '10.77.0.5', role: 'primary' }],
      endpoints: [{ type: 'private', host: '10.77.0.5', port: 6379, tls: false }],
    });
    await worker.updateOperation(operationId, { status: 'succeeded', progress: 100, finishedAt: new Date() });
    await worker.addEvent(operationId, { kind: 'operation_succeeded', step: null, message: 'operation succeeded' });

    await progressCard().getByText('succeeded', { exact: true }).waitFor();
    await progressCard().getByText('100%').waitFor();
    await page.getByLabel('Status: Running').waitFor();
    await page.getByLabel('Health: Healthy').waitFor();
    const endpoints = page.getByRole('table', { name: 'Endpoints' });
    await expect(endpoints.getByRole('row').nth(1).getByRole('cell').allTextContents()).resolves.toEqual(['private', '10.77.0.5', '6379', 'No']);
    await page.getByLabel('redis-cli command', { exact: true }).getByText('redis-cli -h 10.77.0.5 -p 6379 --user default --askpass').waitFor();
    const uri = (await page.getByLabel('Connection string', { exact: true }).textContent())!;
    expect(uri).toMatch(/^redis:\/\/default:[^@]+@10\.77\.0\.5:6379$/);
    expect(uri).not.toContain(password);
    await snap(page, '11-instance-running', { docs: true });

    await page.getByRole('link', { name: 'Instances' }).first().click();
    const row = page.getByRole('table', { name: 'Instances' }).getByRole('row').filter({ hasText: 'sessions-cache' });
    await row.getByText('10.77.0.5:6379').waitFor();
    await row.getByLabel('Status: Running').waitFor();
  });

  test('database users: added and reset with the password shown once, the old one revoked', async () => {
    const id = runningInstanceId;
    const path = { params: { path: { project: projectId, instance: id } } };
    await page.goto(`/projects/${projectId}/instances/${id}`);
    await page.getByRole('tab', { name: 'Users' }).click();
    const users = page.getByRole('table', { name: 'Database users' });
    await users.getByRole('cell', { name: 'default', exact: true }).waitFor();

    await page.getByRole('button', { name: 'Add user' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add database user' });
    await dialog.getByLabel('Username').fill('reporting');
    await dialog.getByRole('combobox', { name: 'Permission' }).click();
    await page.getByRole('option', { name: 'Read only' }).click();
    await dialog.getByRole('button', { name: 'Add user' }).click();
    const secret = page.getByRole('region', { name: 'Password of reporting' });
    const first = (await secret.getByLabel('Password of reporting', { exact: true }).textContent())!.trim();
    expect(first.length).toBeGreaterThanOrEqual(12);
    await users.getByRole('row').filter({ hasText: 'reporting' }).getByText('Read only').waitFor();
    const listed = await api.GET('/v1/projects/{project}/instances/{instance}/users', path);
    expect(listed.data!.items.map((u) => [u.username, u.permission])).toContainEqual(['reporting', 'read_only']);

    await users.getByRole('row').filter({ hasText: 'reporting' }).getByRole('button', { name: 'Reset password' }).click();
    await expect.poll(async () => (await secret.getByLabel('Password of reporting', { exact: true }).textContent())?.trim()).not.toBe(first);
    const revoke = users.getByRole('button', { name: 'Revoke the previous password of reporting' });
    await revoke.waitFor();
    await revoke.click();
    await revoke.waitFor({ state: 'detached' });
    await snap(page, '14-users');
    const after = await api.GET('/v1/projects/{project}/instances/{instance}/users', path);
    expect(after.data!.items.find((u) => u.username === 'reporting')!.old_password_valid_until).toBeNull();
  });

  test('the allowlist refuses a bad CIDR and saves good ones', async () => {
    const id = runningInstanceId;
    await page.getByRole('tab', { name: 'Allowlist' }).click();
    await page.getByRole('button', { name: 'Add entry' }).click();
    await page.getByLabel('Allowlist entry 1 CIDR').fill('192.168.1.7/24');
    await page.getByRole('button', { name: 'Save allowlist' }).click();
    await page.getByText('“192.168.1.7/24” is not an IP address or CIDR block.').waitFor();
    await page.getByLabel('Allowlist entry 1 CIDR').fill('192.168.1.0/24');
    await page.getByLabel('Allowlist entry 1 description').fill('office');
    await page.getByRole('button', { name: 'Add entry' }).click();
    await page.getByLabel('Allowlist entry 2 CIDR').fill('2001:db8::/48');
    await page.getByRole('button', { name: 'Save allowlist' }).click();
    await page.getByText('Allowlist saved').waitFor();
    await snap(page, '15-allowlist');
    const saved = await api.GET('/v1/projects/{project}/instances/{instance}/allowlist', { params: { path: { project: projectId, instance: id } } });
    expect(saved.data!.items.map((e) => [e.cidr, e.description]).sort()).toEqual([
      ['192.168.1.0/24', 'office'],
      ['2001:db8::/48', ''],
    ]);
  });

  test('modify resizes a running instance and the new operation shows up', async () => {
    const id = runningInstanceId;
    await page.getByRole('button', { name: 'Modify' }).click();
    const dialog = page.getByRole('dialog', { name: 'Modify sessions-cache' });
    await dialog.getByRole('radio', { name: /kv\.standard\.large, 2 vCPU, 8 GiB/ }).check();
    await dialog.getByLabel('Disk (GiB)').fill('5');
    await dialog.getByRole('button', { name: 'Apply changes' }).click();
    await dialog.getByText('Disks only grow: at least 10 GiB.').waitFor();
    await dialog.getByLabel('Disk (GiB)').fill('20');
    await dialog.getByRole('button', { name: 'Apply changes' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('tab', { name: 'Overview' }).click();
    await page.getByLabel('Status: Modifying').waitFor();
    await progressCard().getByRole('heading', { name: 'Operation progress · modify' }).waitFor();
    await progressCard().getByText('Current step: Waiting for a worker').waitFor();
    const instance = await api.GET('/v1/projects/{project}/instances/{instance}', { params: { path: { project: projectId, instance: id } } });
    expect(instance.data!.status).toBe('modifying');
    expect(instance.data!.current_operation?.type).toBe('modify');
  });

  test('restart is offered on a running instance only, and starts a restart operation', async () => {
    const { id, operationId } = await createInstance('restart-me');
    await page.goto(`/projects/${projectId}/instances/${id}`);
    const restart = page.getByRole('button', { name: 'Restart' });
    await page.getByLabel('Status: Creating').waitFor();
    expect(await restart.isDisabled()).toBe(true);
    await worker.updateInstance(id, { status: 'running', health: 'healthy' });
    await worker.updateOperation(operationId, { status: 'succeeded', progress: 100, finishedAt: new Date() });
    await page.getByLabel('Status: Running').waitFor({ timeout: 30_000 }); // the page polls while creating
    await restart.click();
    await page.getByLabel('Status: Restarting').waitFor();
    await progressCard().getByRole('heading', { name: 'Operation progress · restart' }).waitFor();
    const after = await api.GET('/v1/projects/{project}/instances/{instance}', { params: { path: { project: projectId, instance: id } } });
    expect([after.data!.status, after.data!.current_operation?.type]).toEqual(['restarting', 'restart']);
  });

  test('a failed create shows the failing step and message', async () => {
    const { id, operationId } = await createInstance('will-fail');
    await page.goto(`/projects/${projectId}/instances/${id}`);
    await progressCard().getByText('Live').waitFor();
    await worker.updateOperation(operationId, { status: 'running', startedAt: new Date() });
    await step(operationId, 0, 'running');
    await step(operationId, 0, 'succeeded');
    await step(operationId, 1, 'running');
    const fault = { code: 'terraform_failed', step: 'terraform_apply', message: 'terraform apply exited with 1', exit_code: 1, output_tail: 'Error: no space left' };
    await step(operationId, 1, 'failed', fault.message);
    await worker.updateInstance(id, { status: 'create_failed', fault });
    await worker.updateOperation(operationId, { status: 'failed', error: fault, finishedAt: new Date() });
    await worker.addEvent(operationId, { kind: 'operation_failed', step: fault.step, message: fault.message, data: fault });

    await progressCard().getByText('failed', { exact: true }).waitFor();
    await page.getByLabel('Status: Create failed').waitFor();
    await page.getByRole('alert').filter({ hasText: 'terraform apply exited with 1' }).waitFor();
    await expect(progressCard().getByRole('list', { name: 'Steps' }).getByRole('listitem').nth(1).textContent()).resolves.toBe('terraform apply: failed');
    await snap(page, '12-create-failed');
  });
});
