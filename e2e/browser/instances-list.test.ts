// The instances list with more instances than one page: the API pages with a cursor and
// filters by name; the console asks for the next page on demand and sends the filter to the
// API rather than filtering what it happens to have loaded. And the list is a light page: its
// first load, with nothing cached, transfers at most 300 KB of JavaScript over the wire, while
// an operation's event stream still comes through the console uncompressed and unbuffered.
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

/** The list page's JavaScript budget on a first load (bytes on the wire, compressed). */
const FIRST_LOAD_JS_BUDGET = 300_000;

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

  test('the first load transfers at most 300 KB of JavaScript, compressed', async () => {
    // A fresh context has an empty cache; it carries the session, so the list itself loads.
    const context = await ui.browser.newContext({ baseURL: ui.consoleUrl, storageState: await page.context().storageState() });
    try {
      const fresh = await context.newPage();
      const scripts: Promise<number>[] = [];
      fresh.on('requestfinished', (request) => {
        // Encoded body bytes: what crossed the wire, after gzip or brotli.
        if (request.resourceType() === 'script') scripts.push(request.sizes().then((s) => s.responseBodySize));
      });
      const encodings = new Set<string>();
      fresh.on('response', (response) => {
        if (response.request().resourceType() === 'script') encodings.add(response.headers()['content-encoding'] ?? 'identity');
      });
      await fresh.goto(`/projects/${projectId}/instances`);
      await fresh.getByRole('link', { name: `bulk-${COUNT - 1}` }).waitFor();
      await fresh.waitForLoadState('networkidle');
      const sizes = await Promise.all(scripts);
      const total = sizes.reduce((a, b) => a + b, 0);
      console.log(`instances list, first load: ${sizes.length} scripts, ${total} bytes of JavaScript on the wire (${[...encodings].join(', ')})`);
      expect(total).toBeGreaterThan(0);
      expect(total).toBeLessThanOrEqual(FIRST_LOAD_JS_BUDGET);
    } finally {
      await context.close();
    }
  });

  test("an operation's event stream is neither compressed nor held back by the console", async () => {
    const listed = await api.GET('/v1/projects/{project}/instances', { params: { path: { project: projectId }, query: { limit: 1 } } });
    const operationId = listed.data!.items[0]!.current_operation_id!;
    // No worker runs here, so the create operation stays pending and its stream stays open: the
    // first event can only arrive if the console passes it on as it comes, not when the stream ends.
    const first = await page.evaluate(async (url) => {
      const controller = new AbortController();
      const response = await fetch(url, { headers: { accept: 'text/event-stream' }, signal: controller.signal });
      const reader = response.body!.getReader();
      const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no event within 5 s')), 5_000));
      try {
        const chunk = await Promise.race([reader.read(), timeout]);
        return { encoding: response.headers.get('content-encoding'), cacheControl: response.headers.get('cache-control'), done: chunk.done, text: new TextDecoder().decode(chunk.value) };
      } finally {
        controller.abort();
      }
    }, `/v1/operations/${operationId}/events`);
    expect(first.encoding).toBeNull();
    expect(first.cacheControl).toContain('no-transform');
    expect(first.done).toBe(false);
    expect(first.text).toMatch(/^(id|event|data):/m);
  });
});
