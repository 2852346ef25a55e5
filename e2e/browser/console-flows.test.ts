// A user's first session in the console, in Debian's Chromium against the real platform
// (PostgreSQL, API, built console; no worker, so a new instance stays `creating`):
// log in as the admin, create an instance from the form, find it in the list, open it,
// and create an API key that is shown once and really authenticates.
import { createBasaltClient, type BasaltClient } from '@basalt/api-client';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { startConsole, type ConsoleSession } from './support/console.js';
import { snap } from './support/screenshots.js';

let ui: ConsoleSession;
let platform: ConsoleSession['platform'];
let browser: Browser;
let context: BrowserContext;
let page: Page;
let consoleUrl: string;
/** The API as a script sees it, logged in with the admin's session: the oracle for what the UI claims. */
let api: BasaltClient;
const instanceName = `orders-${Date.now().toString(36)}`;
let instancePassword = '';
let instancePath = '';

beforeAll(async () => {
  // Not logged in: the first test is the login itself.
  ui = await startConsole({ logIn: false });
  ({ platform, browser, page, consoleUrl, api } = ui);
  context = page.context();
});

afterEach(() => ui.checkPageErrors());

afterAll(async () => {
  await ui?.stop();
});

describe('console flows', () => {
  test('an anonymous visitor is sent to the login page, and a wrong password is refused', async () => {
    await page.goto('/');
    await page.waitForURL(/\/login/);
    await expect(page.getByRole('heading', { name: 'Sign in to the console' }).isVisible()).resolves.toBe(true);
    await page.getByLabel('E-mail').fill(platform.admin.email);
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    // Next's route announcer is an (empty) alert too: look for ours by what it says.
    await page.getByRole('alert').filter({ hasText: 'The e-mail or password is not correct.' }).waitFor();
    await snap(page, '01-login-refused');
  });

  test('the admin logs in and lands on the instances of their project', async () => {
    await page.getByLabel('Password').fill(platform.admin.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/projects\/[^/]+\/instances$/);
    await page.getByRole('heading', { name: 'Instances', level: 1 }).waitFor();
    await page.getByText('No instances yet').waitFor();
    // The session cookie is the API's, httpOnly, and first-party to the console's origin.
    const cookies = await context.cookies(consoleUrl);
    expect(cookies.some((c) => c.httpOnly)).toBe(true);
    expect(await page.evaluate(() => document.cookie)).toBe('');
    // The project switcher names the admin's project.
    const me = await api.GET('/v1/auth/me');
    const project = me.data!.projects[0];
    expect(page.url()).toContain(`/projects/${project.id}/instances`);
    await expect(page.getByRole('button', { name: `Project: ${project.name}` }).isVisible()).resolves.toBe(true);
  });

  test('the create form names a bad field and sends nothing', async () => {
    await page.getByRole('link', { name: 'Create instance' }).first().click();
    await page.getByRole('heading', { name: 'Create instance', level: 1 }).waitFor();
    await page.getByRole('radio', { name: /kv\.standard\.small/ }).waitFor();
    await page.getByLabel('Instance name').fill('Bad_Name');
    await page.getByLabel('Allowlist entry 1 CIDR').fill('10.0.0.1/8');
    await page.getByRole('button', { name: 'Create instance' }).click();
    await page.getByText(/Use 1–63 lowercase letters/).waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('name'); // focus moves to the first problem
    await page.getByText(/“10\.0\.0\.1\/8” is not an IP address or CIDR block/).waitFor();
    await snap(page, '02-create-form-errors');
    const list = await api.GET('/v1/projects/{project}/instances', {
      params: { path: { project: page.url().split('/')[4] } },
    });
    expect(list.data!.items).toHaveLength(0);
  });

  test('creating an instance shows the default password once, and the API holds what the form sent', async () => {
    const projectId = page.url().split('/')[4];
    await page.getByLabel('Instance name').fill(instanceName);
    // The catalog shows each type with its vCPU and memory.
    const xlarge = page.getByRole('radio', { name: /kv\.standard\.xlarge, 4 vCPU, 16 GiB memory/ });
    await xlarge.check();
    await page.getByLabel('Disk (GiB)').fill('60');
    await page.getByLabel('Allowlist entry 1 CIDR').fill('10.0.0.0/8');
    await page.getByLabel('Allowlist entry 1 description').fill('office');
    await page.getByRole('switch', { name: 'Deletion protection' }).click();
    await page.getByRole('combobox', { name: 'Write-ahead log fsync' }).click();
    await page.getByRole('option', { name: /^always/ }).click();
    await page.getByLabel('Tags').fill('team=web\nenv=e2e');
    await snap(page, '03-create-form');
    await page.getByRole('button', { name: 'Create instance' }).click();

    const secret = page.getByRole('region', { name: 'Default user password' });
    await secret.waitFor();
    instancePassword = (await secret.getByLabel('Password', { exact: true }).textContent())!.trim();
    expect(instancePassword).toMatch(/^[A-Za-z0-9!#$%&()*+,\-.:;<=>?@[\]^_{|}~]{12,128}$/);
    await page.getByText(`Instance ${instanceName} requested`).waitFor();
    await snap(page, '04-created-password-once');

    const list = await api.GET('/v1/projects/{project}/instances', { params: { path: { project: projectId } } });
    const created = list.data!.items.find((i) => i.name === instanceName)!;
    expect(created).toMatchObject({
      instance_type: 'kv.standard.xlarge',
      region: 'local',
      disk_gib: 60,
      status: 'creating',
      deletion_protection: true,
      tls_enabled: false,
      parameters: { fsync: 'always' },
      tags: { team: 'web', env: 'e2e' },
    });
    const allowlist = await api.GET('/v1/projects/{project}/instances/{instance}/allowlist', {
      params: { path: { project: projectId, instance: created.id } },
    });
    expect(allowlist.data!.items.map((e) => [e.cidr, e.description])).toEqual([['10.0.0.0/8', 'office']]);
    instancePath = `/projects/${projectId}/instances/${created.id}`;
  });

  test('the new instance is in the list with its status, type and region', async () => {
    await page.getByRole('link', { name: 'Instances' }).first().click();
    const table = page.getByRole('table', { name: 'Instances' });
    await table.waitFor();
    const row = table.getByRole('row').filter({ has: page.getByRole('link', { name: instanceName }) });
    await expect(row.getByRole('cell').allTextContents()).resolves.toEqual([
      instanceName,
      'Creating',
      '—',
      '—',
      'kv.standard.xlarge',
      'local',
      'Pending',
      'just now',
    ]);
    await snap(page, '05-instances-list');
  });

  test('the detail page shows status, configuration, the waiting operation, users and operations', async () => {
    await page.getByRole('link', { name: instanceName }).click();
    await page.waitForURL(`**${instancePath}`);
    await page.getByRole('heading', { name: instanceName, level: 1 }).waitFor();
    await page.getByLabel('Status: Creating').first().waitFor();
    const progress = page.getByRole('region', { name: 'Operation progress' });
    await progress.getByText('Current step: Waiting for a worker').waitFor();
    await progress.getByText('pending', { exact: true }).waitFor();
    // The operation's event stream reaches the browser through the console's /v1 proxy.
    await progress.getByRole('list', { name: 'Operation log' }).getByText('create requested').waitFor();
    await progress.getByText('Live').waitFor();
    await page.getByText('Endpoints appear when provisioning').waitFor();
    await expect(page.getByRole('region', { name: 'Configuration' }).textContent()).resolves.toContain('Deletion protectionOn');
    await expect(page.getByRole('region', { name: 'Configuration' }).textContent()).resolves.toContain('kv.standard.xlarge');
    await page.getByRole('region', { name: 'Configuration' }).getByText('team=web').waitFor();
    await snap(page, '06-instance-overview');

    await page.getByRole('tab', { name: 'Users' }).click();
    const users = page.getByRole('table', { name: 'Database users' });
    await users.getByRole('cell', { name: 'default', exact: true }).waitFor();

    await page.getByRole('tab', { name: 'Operations' }).click();
    const ops = page.getByRole('table', { name: 'Operations' });
    await ops.getByRole('cell', { name: 'create', exact: true }).waitFor();
    await ops.getByText('pending').waitFor();

    await page.getByRole('tab', { name: 'Benchmarks' }).click();
    await page.getByText('No benchmark has run on this instance yet').waitFor();

    // Deletion protection holds in the UI as in the API: the delete dialog says so and the API refuses.
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: `Delete ${instanceName}?` });
    await dialog.getByText('Deletion protection is on').waitFor();
    await dialog.getByLabel(`Type ${instanceName} to confirm`).fill(instanceName);
    await dialog.getByRole('button', { name: 'Delete instance' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'Deletion protection is on' }).waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
  });

  test('turning deletion protection off lets the instance be deleted', async () => {
    const [, , projectId, , instanceId] = instancePath.split('/');
    const path = { params: { path: { project: projectId!, instance: instanceId! } } };
    await page.getByRole('tab', { name: 'Overview' }).click();
    const toggle = page.getByRole('switch', { name: 'Deletion protection' });
    expect(await toggle.getAttribute('aria-checked')).toBe('true');
    await toggle.click();
    await expect.poll(async () => (await api.GET('/v1/projects/{project}/instances/{instance}', path)).data?.deletion_protection).toBe(false);
    expect(await toggle.getAttribute('aria-checked')).toBe('false');

    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: `Delete ${instanceName}?` });
    const confirm = dialog.getByRole('button', { name: 'Delete instance' });
    expect(await confirm.isDisabled()).toBe(true); // until the name is typed
    await dialog.getByLabel(`Type ${instanceName} to confirm`).fill(instanceName);
    await confirm.click();
    await page.waitForURL(/\/instances$/);
    const row = page.getByRole('table', { name: 'Instances' }).getByRole('row').filter({ has: page.getByRole('link', { name: instanceName }) });
    await row.getByLabel('Status: Deleting').waitFor();
    expect((await api.GET('/v1/projects/{project}/instances/{instance}', path)).data?.status).toBe('deleting');
  });

  test('an API key is created, shown once, and authenticates against the API', async () => {
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Create API key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create API key' });
    await dialog.getByLabel('Key name').fill('terraform-ci');
    await dialog.getByRole('button', { name: 'Create key' }).click();
    const secret = page.getByRole('region', { name: 'API key terraform-ci' });
    await secret.waitFor();
    const key = (await secret.getByLabel('API key terraform-ci', { exact: true }).textContent())!.trim();
    expect(key.length).toBeGreaterThanOrEqual(24);
    const row = page.getByRole('table', { name: 'API keys' }).getByRole('row').filter({ hasText: 'terraform-ci' });
    await row.getByText('Active').waitFor();
    await snap(page, '07-api-key-once');

    const asKey = await createBasaltClient({ baseUrl: platform.apiUrl, apiKey: key }).GET('/v1/auth/me');
    expect(asKey.response.status).toBe(200);
    expect(asKey.data!.auth_method).toBe('api_key');

    // Shown once: after a reload the secret is gone and only its prefix is listed.
    await page.reload();
    await page.getByRole('table', { name: 'API keys' }).getByText('terraform-ci').waitFor();
    expect(await page.getByText(key).count()).toBe(0);
  });

  test('the project switcher creates a project and moves between projects', async () => {
    const homeProject = new URL(page.url()).pathname.split('/')[2];
    await page.getByRole('button', { name: /^Project: / }).click();
    await page.getByRole('menuitem', { name: 'New project' }).click();
    const dialog = page.getByRole('dialog', { name: 'New project' });
    await dialog.getByLabel('Project name').fill('analytics');
    await dialog.getByRole('button', { name: 'Create project' }).click();
    await page.getByRole('button', { name: 'Project: analytics' }).waitFor();
    await page.getByText('No instances yet').waitFor();
    const analytics = new URL(page.url()).pathname.split('/')[2];
    expect(analytics).not.toBe(homeProject);
    const projects = await api.GET('/v1/projects');
    expect(projects.data!.items.find((p) => p.id === analytics)).toMatchObject({ name: 'analytics', role: 'owner' });

    await page.getByRole('button', { name: 'Project: analytics' }).click();
    const other = projects.data!.items.find((p) => p.id === homeProject)!;
    await page.getByRole('menuitem', { name: new RegExp(`^${other.name}`) }).click();
    await page.waitForURL(`**/projects/${homeProject}/instances`);
    await page.getByRole('link', { name: instanceName }).waitFor();
  });

  test('members: the admin creates a user, adds them to the project, and they see its instances until removed', async () => {
    const projectId = new URL(page.url()).pathname.split('/')[2]!;
    const dev = { email: 'dev@console.test', password: `dev-${Math.random().toString(36).slice(2)}` };
    await page.getByRole('link', { name: 'Members' }).click();
    const table = page.getByRole('table', { name: 'Members' });
    await table.getByRole('row').filter({ hasText: `${platform.admin.email}(you)` }).waitFor();

    await page.getByRole('button', { name: 'Create user' }).click();
    const create = page.getByRole('dialog', { name: 'Create user' });
    await create.getByLabel('E-mail').fill(dev.email);
    await create.getByLabel('Name').fill('Dev');
    await create.getByLabel('Initial password').fill(dev.password);
    await create.getByRole('button', { name: 'Create user' }).click();
    await page.getByText(`User ${dev.email} created.`).waitFor();

    await page.getByRole('button', { name: 'Add member' }).click();
    const add = page.getByRole('dialog', { name: 'Add member' });
    await add.getByLabel('E-mail').fill(dev.email);
    await add.getByRole('combobox', { name: 'Role' }).click();
    await page.getByRole('option', { name: 'Viewer' }).click();
    await add.getByRole('button', { name: 'Add member' }).click();
    const role = table.getByRole('combobox', { name: `Role of ${dev.email}` });
    await expect.poll(() => role.textContent()).toBe('Viewer');

    // The new member, in a browser of their own, sees this project's instances.
    const devContext = await browser.newContext({ viewport: { width: 1280, height: 800 }, baseURL: consoleUrl });
    try {
      const devPage = await devContext.newPage();
      devPage.setDefaultTimeout(20_000);
      await devPage.goto('/login');
      await devPage.getByLabel('E-mail').fill(dev.email);
      await devPage.getByLabel('Password').fill(dev.password);
      await devPage.getByRole('button', { name: 'Sign in' }).click();
      await devPage.waitForURL(/\/instances$/);
      await devPage.goto(`/projects/${projectId}/instances`);
      await devPage.getByRole('link', { name: instanceName }).waitFor();
      // A viewer reads only: no way to create.
      expect(await devPage.getByRole('button', { name: 'Create instance' }).isDisabled()).toBe(true);

      await role.click();
      await page.getByRole('option', { name: 'Member' }).click();
      await expect
        .poll(async () => (await api.GET('/v1/projects/{project}/members', { params: { path: { project: projectId } } })).data?.items.find((m) => m.email === dev.email)?.role)
        .toBe('member');
      await snap(page, '09-members');
      await devPage.reload();
      await devPage.getByRole('link', { name: 'Create instance' }).waitFor();

      // Removed, they lose it: the API answers 404 and the page says so.
      page.once('dialog', (dialog) => void dialog.accept());
      await table.getByRole('row').filter({ hasText: dev.email }).getByRole('button', { name: `Remove ${dev.email}` }).click();
      await table.getByRole('row').filter({ hasText: dev.email }).waitFor({ state: 'detached' });
      await devPage.reload();
      await devPage.getByRole('alert').filter({ hasText: 'Could not load instances' }).waitFor();
      expect(await devPage.getByRole('link', { name: instanceName }).count()).toBe(0);
    } finally {
      await devContext.close();
    }
  });

  test('the activity page lists who changed what, refusals included', async () => {
    await page.getByRole('link', { name: 'Activity' }).click();
    const table = page.getByRole('table', { name: 'Activity' });
    await table.waitFor();
    const created = table.getByRole('row').filter({ hasText: 'POST /v1/projects/:project/instances' }).filter({ hasText: '202' });
    await created.getByRole('cell', { name: platform.admin.email, exact: true }).waitFor();
    // The delete refused while deletion protection was on is on record too.
    await table.getByRole('row').filter({ hasText: 'DELETE /v1/projects/:project/instances/:instance' }).filter({ hasText: '409' }).waitFor();
    await snap(page, '08-activity');
  });

  test('signing out ends the session', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/login/);
    await page.goto(instancePath);
    await page.waitForURL(/\/login\?next=/);
  });
});
