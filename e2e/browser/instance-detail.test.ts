// An instance's life in the console, in Chromium against the whole platform (API, the real
// worker with Terraform, Ansible and a local VM, console). The page follows the create over
// Server-Sent Events (through the console's /v1 proxy): its steps, then `running` with the
// endpoint and the redis-cli command. On the running instance: database users, the allowlist,
// a resize and a restart, each carried out by the worker. A create that fails in the worker
// (a platform whose VM image is missing) shows its failing step and message.
import path from 'node:path';
import os from 'node:os';
import type { BasaltClient } from '@basalt/api-client';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { startConsole, type ConsoleSession } from './support/console.js';
import { deleteInstanceAndWait } from './support/instance.js';
import { snap } from './support/screenshots.js';

const NAME = 'sessions-cache';
// The host reaches the local region's VMs from the bridge's gateway: an allowlist that leaves
// it out would leave the control plane out (its health checks), so the test keeps it in.
const CONTROL_PLANE = '10.77.0.1';

let ui: ConsoleSession;
let page: Page;
let projectId: string;
let api: BasaltClient;
let instanceId = '';

beforeAll(async () => {
  ui = await startConsole({ worker: true });
  ({ page, api, projectId } = ui);
}, 120_000);

afterEach(() => ui.checkPageErrors());

afterAll(async () => {
  // No VM outlives the test.
  if (instanceId) await deleteInstanceAndWait(api, projectId, instanceId);
  await ui?.stop();
}, 300_000);

const progressCard = () => page.getByRole('region', { name: /Operation progress/ });
const instancePath = () => ({ params: { path: { project: projectId, instance: instanceId } } });

async function waitForStatus(status: string, seconds = 240): Promise<void> {
  await expect.poll(async () => (await api.GET('/v1/projects/{project}/instances/{instance}', instancePath())).data?.status, { timeout: seconds * 1000, interval: 1000 }).toBe(status);
}

describe('an instance in the console, worked by the real worker', () => {
  test('the page follows a create step by step and ends running with its endpoint', async () => {
    const created = await api.POST('/v1/projects/{project}/instances', {
      params: { path: { project: projectId } },
      body: { name: NAME, instance_type: 'kv.standard.small', region: 'local', engine_version: '1.0', tls_enabled: false, deletion_protection: false },
    });
    expect(created.response.status).toBe(202);
    instanceId = created.data!.instance.id;
    const password = created.data!.default_user.password;
    await page.goto(`/projects/${projectId}/instances/${instanceId}`);
    await progressCard().getByRole('heading', { name: 'Operation progress · create' }).waitFor();
    await snap(page, '10-operation-in-progress');

    // Users and the allowlist cannot change while the instance is being created (the API
    // refuses it): the tabs say so and offer no action.
    const locked = 'The instance is being created: its users and allowlist can change once it is running.';
    await page.getByRole('tab', { name: 'Users' }).click();
    await page.getByText(locked).waitFor();
    expect(await page.getByRole('button', { name: 'Add user' }).isDisabled()).toBe(true);
    await page.getByRole('tab', { name: 'Allowlist' }).click();
    await page.getByText(locked).waitFor();
    expect(await page.getByRole('button', { name: 'Save allowlist' }).isDisabled()).toBe(true);
    await page.getByRole('tab', { name: 'Overview' }).click();

    await progressCard().getByText('succeeded', { exact: true }).waitFor({ timeout: 240_000 });
    await progressCard().getByText('100%').waitFor();
    const steps = await progressCard().getByRole('list', { name: 'Steps' }).getByRole('listitem').allTextContents();
    expect(steps.length).toBeGreaterThanOrEqual(3);
    for (const step of steps) expect(step).toMatch(/: succeeded$/);
    await page.getByLabel('Status: Running').first().waitFor({ timeout: 30_000 });
    await page.getByLabel('Health: Healthy').first().waitFor({ timeout: 30_000 });

    const instance = (await api.GET('/v1/projects/{project}/instances/{instance}', instancePath())).data!;
    const endpoint = instance.endpoints[0]!;
    const endpoints = page.getByRole('table', { name: 'Endpoints' });
    await expect(endpoints.getByRole('row').nth(1).getByRole('cell').allTextContents()).resolves.toEqual(['private', 'Primary (read-write)', endpoint.host, String(endpoint.port), 'No']);
    await page.getByLabel('redis-cli command', { exact: true }).getByText(`redis-cli -h ${endpoint.host} -p ${endpoint.port} --user default --askpass`).waitFor();
    const uri = (await page.getByLabel('Connection string', { exact: true }).textContent())!;
    expect(uri).toMatch(new RegExp(`^redis://default:[^@]+@${endpoint.host.replace(/\./g, '\\.')}:${endpoint.port}$`));
    expect(uri).not.toContain(password);
    await snap(page, '11-instance-running', { docs: true });

    await page.getByRole('link', { name: 'Instances' }).first().click();
    const row = page.getByRole('table', { name: 'Instances' }).getByRole('row').filter({ hasText: NAME });
    await row.getByText(`${endpoint.host}:${endpoint.port}`).waitFor();
    await row.getByLabel('Status: Running').waitFor();
  }, 300_000);

  test('database users: added and reset with the password shown once, the old one revoked', async () => {
    await page.goto(`/projects/${projectId}/instances/${instanceId}`);
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
    const listed = await api.GET('/v1/projects/{project}/instances/{instance}/users', instancePath());
    expect(listed.data!.items.map((u) => [u.username, u.permission])).toContainEqual(['reporting', 'read_only']);
    await waitForStatus('running', 120);

    await users.getByRole('row').filter({ hasText: 'reporting' }).getByRole('button', { name: 'Reset password' }).click();
    await expect.poll(async () => (await secret.getByLabel('Password of reporting', { exact: true }).textContent())?.trim()).not.toBe(first);
    const revoke = users.getByRole('button', { name: 'Revoke the previous password of reporting' });
    await revoke.waitFor();
    await revoke.click();
    await revoke.waitFor({ state: 'detached' });
    await snap(page, '14-users');
    const after = await api.GET('/v1/projects/{project}/instances/{instance}/users', instancePath());
    expect(after.data!.items.find((u) => u.username === 'reporting')!.old_password_valid_until).toBeNull();
    await waitForStatus('running', 120);
  }, 300_000);

  test('the allowlist refuses a bad CIDR and saves good ones', async () => {
    await page.getByRole('tab', { name: 'Allowlist' }).click();
    await page.getByRole('button', { name: 'Add entry' }).click();
    await page.getByLabel('Allowlist entry 1 CIDR').fill('192.168.1.7/24');
    await page.getByRole('button', { name: 'Save allowlist' }).click();
    await page.getByText('“192.168.1.7/24” is not an IP address or CIDR block.').waitFor();
    await page.getByLabel('Allowlist entry 1 CIDR').fill('192.168.1.0/24');
    await page.getByLabel('Allowlist entry 1 description').fill('office');
    await page.getByRole('button', { name: 'Add entry' }).click();
    await page.getByLabel('Allowlist entry 2 CIDR').fill('2001:db8::/48');
    await page.getByRole('button', { name: 'Add entry' }).click();
    await page.getByLabel('Allowlist entry 3 CIDR').fill(CONTROL_PLANE);
    await page.getByLabel('Allowlist entry 3 description').fill('control plane');
    await page.getByRole('button', { name: 'Save allowlist' }).click();
    await page.getByText('Allowlist saved').waitFor();
    await snap(page, '15-allowlist');
    const saved = await api.GET('/v1/projects/{project}/instances/{instance}/allowlist', instancePath());
    expect(saved.data!.items.map((e) => [e.cidr, e.description]).sort()).toEqual([
      [`${CONTROL_PLANE}/32`, 'control plane'],
      ['192.168.1.0/24', 'office'],
      ['2001:db8::/48', ''],
    ]);
    await waitForStatus('running', 120);
  }, 300_000);

  test('modify resizes the running instance: the worker carries it out', async () => {
    await page.getByRole('button', { name: 'Modify' }).click();
    const dialog = page.getByRole('dialog', { name: `Modify ${NAME}` });
    await dialog.getByRole('radio', { name: /kv\.standard\.large, 2 vCPU, 8 GiB/ }).check();
    await dialog.getByLabel('Disk (GiB)').fill('5');
    await dialog.getByRole('button', { name: 'Apply changes' }).click();
    await dialog.getByText('Disks only grow: at least 10 GiB.').waitFor();
    await dialog.getByLabel('Disk (GiB)').fill('20');
    await dialog.getByRole('button', { name: 'Apply changes' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('tab', { name: 'Overview' }).click();
    await progressCard().getByRole('heading', { name: 'Operation progress · modify' }).waitFor();
    await progressCard().getByText('succeeded', { exact: true }).waitFor({ timeout: 300_000 });
    await page.getByLabel('Status: Running').first().waitFor({ timeout: 30_000 });
    const instance = (await api.GET('/v1/projects/{project}/instances/{instance}', instancePath())).data!;
    expect([instance.instance_type, instance.disk_gib, instance.status]).toEqual(['kv.standard.large', 20, 'running']);
  }, 360_000);

  test('restart is offered on the running instance and the worker restarts it', async () => {
    const restart = page.getByRole('button', { name: 'Restart' });
    expect(await restart.isDisabled()).toBe(false);
    await restart.click();
    await progressCard().getByRole('heading', { name: 'Operation progress · restart' }).waitFor();
    await progressCard().getByText('succeeded', { exact: true }).waitFor({ timeout: 240_000 });
    await page.getByLabel('Status: Running').first().waitFor({ timeout: 30_000 });
    await waitForStatus('running', 30);
  }, 300_000);
});

describe('a create that fails in the worker', () => {
  let broken: ConsoleSession;
  let brokenApi: BasaltClient;
  let brokenProject = '';
  let failedId = '';

  beforeAll(async () => {
    // The worker's VM image does not exist, so `terraform apply` fails making the VM.
    broken = await startConsole({
      worker: true,
      env: { BASALT_VM_IMAGE: path.join(os.tmpdir(), `basalt-no-such-image-${process.pid}`), BASALT_LOCAL_VM_KIND: 'nspawn' },
    });
    ({ api: brokenApi, projectId: brokenProject, page } = broken);
  }, 120_000);

  afterEach(() => broken.checkPageErrors());

  afterAll(async () => {
    if (failedId) await deleteInstanceAndWait(brokenApi, brokenProject, failedId);
    await broken?.stop();
  }, 300_000);

  test('shows the failing step and message', async () => {
    const created = await brokenApi.POST('/v1/projects/{project}/instances', {
      params: { path: { project: brokenProject } },
      body: { name: 'will-fail', instance_type: 'kv.standard.small', region: 'local', engine_version: '1.0', tls_enabled: false, deletion_protection: false },
    });
    expect(created.response.status).toBe(202);
    failedId = created.data!.instance.id;
    await page.goto(`/projects/${brokenProject}/instances/${failedId}`);
    await progressCard().getByText('failed', { exact: true }).waitFor({ timeout: 240_000 });
    await page.getByLabel('Status: Create failed').first().waitFor({ timeout: 30_000 });
    const fault = (await brokenApi.GET('/v1/projects/{project}/instances/{instance}', { params: { path: { project: brokenProject, instance: failedId } } })).data!.fault!;
    expect(fault.step).toBe('terraform_apply');
    await page.getByRole('alert').filter({ hasText: fault.message }).first().waitFor();
    const steps = await progressCard().getByRole('list', { name: 'Steps' }).getByRole('listitem').allTextContents();
    expect(steps).toContain('terraform apply: failed');
    await snap(page, '12-create-failed');
  }, 300_000);
});
