// The instance page's Data tab in Chromium against the whole platform (API, the real worker with
// one standalone VM, console), redis-cli on the host the oracle: a wrong password is refused with
// a clear message; logged in as `default`, the browser finds keys redis-cli wrote, edits a hash
// field and a sorted-set score, sets a TTL, and redis-cli sees each change; 10,000 keys page
// through SCAN without the page ever asking for them all; the command line answers as
// redis-cli prints; a read-only user's browser offers no edit, and the engine refuses its write.
import { execFileSync } from 'node:child_process';
import type { BasaltClient, Schemas } from '@basalt/api-client';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { DATA_SCAN_COUNT_MAX } from '@basalt/api-client/rules';
import { startConsole, type ConsoleSession } from './support/console.js';
import { createRunningInstance, deleteInstanceAndWait } from './support/instance.js';
import { snap } from './support/screenshots.js';

const READER_PASSWORD = 'reader-Passw0rd-42';

let ui: ConsoleSession;
let page: Page;
let api: BasaltClient;
let projectId: string;
let instance: Schemas['InstanceDetailDto'];
let password = '';

/** redis-cli as `default` (the password through REDISCLI_AUTH, not the command line). */
function cli(...args: string[]): string {
  const { host, port } = instance.endpoints[0]!;
  return execFileSync('redis-cli', ['-h', host, '-p', String(port), '--user', 'default', '--no-auth-warning', ...args], {
    encoding: 'utf8',
    timeout: 20_000,
    env: { ...process.env, REDISCLI_AUTH: password },
  }).trim();
}

async function openDataTab(): Promise<void> {
  await page.goto(`/projects/${projectId}/instances/${instance.id}`);
  await page.getByRole('tab', { name: 'Data' }).click();
  await page.getByRole('form', { name: 'Log in to the data browser' }).waitFor();
}

async function logIn(username: string, secret: string): Promise<void> {
  const form = page.getByRole('form', { name: 'Log in to the data browser' });
  await form.getByRole('combobox', { name: 'Database user' }).click();
  await page.getByRole('option', { name: username, exact: true }).click();
  await form.getByLabel('Password').fill(secret);
  await form.getByRole('button', { name: 'Open data browser' }).click();
}

async function search(pattern: string): Promise<void> {
  await page.getByLabel('Key pattern').fill(pattern);
  await page.getByRole('button', { name: 'Search' }).click();
}

/** Opens a key the list shows, asking for more SCAN pages ("Load more keys") until it is there. */
async function openKey(name: string): Promise<void> {
  const key = page.getByRole('table', { name: 'Keys' }).getByRole('button', { name, exact: true });
  const more = page.getByRole('button', { name: 'Load more keys' });
  for (let tries = 0; tries < 100; tries++) {
    if (await key.isVisible()) return key.click();
    if (await more.isEnabled().catch(() => false)) {
      await more.click();
      await page.getByRole('button', { name: 'Loading…' }).waitFor({ state: 'detached' });
    } else await sleep(200);
  }
  throw new Error(`${name} is not in the key list`);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  ui = await startConsole({ worker: true });
  ({ page, api, projectId } = ui);
  ({ instance, password } = await createRunningInstance(api, projectId, 'browse'));
  const path = { project: projectId, instance: instance.id };
  const reader = await api.POST('/v1/projects/{project}/instances/{instance}/users', { params: { path }, body: { username: 'reader', password: READER_PASSWORD, permission: 'read_only' } });
  const operation = reader.data!.operation;
  for (let waited = 0; operation; waited++) {
    const status = (await api.GET('/v1/operations/{id}', { params: { path: { id: operation.id } } })).data?.status;
    if (status === 'succeeded') break;
    if (status === 'failed' || waited > 240) throw new Error(`adding the read-only user: ${status}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  cli('HSET', 'user:1', 'name', 'Ada Lovelace', 'city', 'London');
  cli('ZADD', 'board', '1', 'ada', '2', 'bob');
  cli('EVAL', "for i = 1, 10000 do redis.call('SET', 'bulk:' .. i, i) end", '0');
}, 300_000);

afterEach(() => ui.checkPageErrors());

afterAll(async () => {
  if (instance) await deleteInstanceAndWait(api, projectId, instance.id);
  await ui?.stop();
}, 300_000);

describe('the data browser', () => {
  test('refuses a wrong password with a clear message', async () => {
    await openDataTab();
    await logIn('default', 'not-the-right-password-1');
    await page.getByText('The instance refused the password of database user default').waitFor();
    expect(await page.getByText('Logged in as').count()).toBe(0);
  });

  test('finds keys redis-cli wrote, edits a hash field and a sorted-set score, sets a TTL; redis-cli sees each', async () => {
    await logIn('default', password);
    await page.getByText('Logged in as').waitFor();
    await search('user:*');
    await openKey('user:1');
    const hash = page.getByRole('region', { name: 'Key user:1' });
    await hash.getByRole('table', { name: 'Fields' }).getByText('Ada Lovelace').waitFor();
    await hash.getByRole('button', { name: 'Edit value of name' }).click();
    await hash.getByLabel('New value of name').fill('Grace "Amazing" Hopper $(id)');
    await hash.getByRole('button', { name: 'Save' }).click();
    await hash.getByText('Grace "Amazing" Hopper $(id)').waitFor();
    expect(cli('HGET', 'user:1', 'name')).toBe('Grace "Amazing" Hopper $(id)');

    await search('board');
    await openKey('board');
    const board = page.getByRole('region', { name: 'Key board' });
    await board.getByRole('button', { name: 'Edit score of ada' }).click();
    await board.getByLabel('New score of ada').fill('42.5');
    await board.getByRole('button', { name: 'Save' }).click();
    await board.getByText('42.5').waitFor();
    expect(cli('ZSCORE', 'board', 'ada')).toBe('42.5');

    await board.getByLabel('TTL in seconds').fill('600');
    await board.getByRole('button', { name: 'Set TTL' }).click();
    await expect.poll(() => board.getByLabel('TTL', { exact: true }).textContent()).toMatch(/^(9|10) min/);
    expect(Number(cli('TTL', 'board'))).toBeGreaterThan(500);
    await snap(page, 'data-browser');

    await page.getByRole('textbox', { name: 'Command' }).fill('ZSCORE board "ada"');
    await page.getByRole('button', { name: 'Run' }).click();
    await page.getByRole('log', { name: 'Command output' }).getByText('"42.5"').waitFor();
  });

  test('pages 10,000 keys through SCAN without loading them all', async () => {
    const counts: number[] = [];
    const onRequest = (request: { url(): string }) => {
      const url = new URL(request.url());
      if (url.pathname.endsWith('/data/keys')) counts.push(Number(url.searchParams.get('count') ?? 100));
    };
    page.on('request', onRequest);
    await search('bulk:*');
    const rows = page.getByRole('table', { name: 'Keys' }).getByRole('row');
    await page.getByRole('button', { name: 'Load more keys' }).waitFor();
    const first = (await rows.count()) - 1;
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThan(1000);
    await page.getByRole('button', { name: 'Load more keys' }).click();
    await expect.poll(async () => (await rows.count()) - 1).toBeGreaterThan(first);
    const second = (await rows.count()) - 1;
    expect(second).toBeLessThan(2000);
    await page.getByText(`${second} keys shown`).waitFor();
    page.off('request', onRequest);
    // Two pages asked for, each within the bound: never the 10,000.
    expect(counts.length).toBeGreaterThanOrEqual(2);
    expect(counts.every((c) => c <= DATA_SCAN_COUNT_MAX)).toBe(true);
    expect(cli('DBSIZE')).toBe('10002');
  });

  test("offers a read-only user no edit, and the engine refuses its write", async () => {
    await page.getByRole('button', { name: 'Log out' }).click();
    await logIn('reader', READER_PASSWORD);
    await page.getByText('Read-only', { exact: true }).waitFor();
    await search('user:*');
    await openKey('user:1');
    const hash = page.getByRole('region', { name: 'Key user:1' });
    await hash.getByText('London').waitFor();
    expect(await hash.getByRole('button', { name: /^Edit/ }).count()).toBe(0);
    expect(await hash.getByRole('button', { name: /Remove|Delete|Add field|Set TTL|Save/ }).count()).toBe(0);
    expect(await hash.getByLabel('TTL in seconds').count()).toBe(0);

    await page.getByRole('textbox', { name: 'Command' }).fill('HSET user:1 name intruder');
    await page.getByRole('button', { name: 'Run' }).click();
    await page.getByRole('log', { name: 'Command output' }).getByText(/^\(error\) NOPERM/).waitFor();
    expect(cli('HGET', 'user:1', 'name')).toBe('Grace "Amazing" Hopper $(id)');
  });
});
