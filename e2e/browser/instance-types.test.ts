// The Instance types page and the per-type benchmark report (issue 13) against the whole
// platform as `npm start` runs it (API, the real worker with Terraform, Ansible and local VMs,
// console): on a fresh install the catalog shows each committed report's figures
// (docs/benchmarks/*.json) labelled with its date, host and commit, and a type without one says
// so; an administrator publishes a shortened report
// (memtier-standard only: 6 scenarios, each beside Redis) from the page, follows its progress,
// and sees the type's figures, charts, tables and commands, which are the API's; the catalog
// then shows Basalt's own figures with the report's date in place of the published ones (the
// other type keeps its published figures); a viewer sees them too but is offered
// no Publish action. The same report through the API: only an administrator may ask for one; its
// runs, headline (the rows' figures), report.md and the catalog's reference are served to any
// signed-in caller; its temporary instance is deleted, in no project, and nothing of it or of
// the run is left on the host. One report serves both (it was two files, each making its own).
// Nothing here writes a report or a benchmark row: the worker's report job does (a temporary
// instance and a peer of the type, deleted with the run).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { renderBenchmarkReport, type BasaltClient, type Schemas, type TypeReportDocument } from '@basalt/api-client';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { startConsole, type ConsoleSession } from './support/console.js';
import { snap } from './support/screenshots.js';
import { apiSession, logInThroughForm } from './support/session.js';

const TYPE = 'kv.standard.small';
const ROOT = path.resolve(import.meta.dirname, '../..');
/** The committed reports the API's start loaded into this fresh install's catalog. */
const committed = (type: string) => JSON.parse(fs.readFileSync(path.join(ROOT, 'docs', 'benchmarks', `${type}.json`), 'utf8')) as TypeReportDocument;

let ui: ConsoleSession;
let page: Page;
let api: BasaltClient;
let projectId = '';
let published: Schemas['InstanceTypeReportDto'];

const typePath = { params: { path: { id: TYPE } } };

/** Polls the API until the operation has ended (succeeded or failed). */
async function waitForOperationEnd(id: string, timeoutMs: number): Promise<Schemas['OperationDto']> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { data } = await api.GET('/v1/operations/{id}', { params: { path: { id } } });
    if (data && (data.status === 'succeeded' || data.status === 'failed')) return data;
    if (Date.now() > deadline) throw new Error(`operation ${id} still ${data?.status} after ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 2_000));
  }
}
const format = (n: number | null | undefined) => new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 }).format(n!);

beforeAll(async () => {
  // 1 s per memtier-standard run instead of 4: the page and the API are checked, not the figures.
  ui = await startConsole({ worker: true, viewport: { width: 1440, height: 1100 }, env: { BASALT_BENCHMARK_SCENARIO_SECONDS: '1' } });
  ({ page, api, projectId } = ui);
}, 300_000);

afterEach(() => ui.checkPageErrors());

afterAll(async () => {
  await ui?.stop();
}, 300_000);

describe('instance types', () => {
  test("on a fresh install the catalog shows each committed report's figures with its date, host and commit, and a type without one none", async () => {
    const types = (await api.GET('/v1/instance-types')).data!.items;
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Instance types' }).click();
    await page.getByRole('heading', { name: 'Instance types', level: 1 }).waitFor();
    const table = page.getByRole('table', { name: 'Instance types' });
    await table.getByRole('link', { name: TYPE, exact: true }).waitFor();
    expect(await table.getByRole('row').count()).toBe(types.length + 1);
    const rowOf = (id: string) => table.getByRole('row').filter({ has: page.getByRole('link', { name: id, exact: true }) });
    for (const id of ['kv.standard.small', 'kv.standard.large']) {
      const doc = committed(id);
      const basalt128 = (workload: string) => doc.runs[0]!.scenarios.find((x) => x.server === 'basalt' && x.workload === workload && x.value_size === 128)!;
      const type = types.find((t) => t.id === id)!;
      expect(type.reference).toMatchObject({ origin: 'published', commit: doc.commit, host: doc.host, measured_at: new Date(doc.measured_at).toISOString(), reads_per_sec: basalt128('read-only').qps });
      const cells = await rowOf(id).getByRole('cell').allTextContents();
      expect(cells.slice(1, 4)).toEqual([String(type.vcpu), `${type.memory_gib} GiB`, `${type.disk_gib_min}–${type.disk_gib_max} GiB`]);
      expect(cells.slice(6, 9)).toEqual([format(basalt128('read-only').qps), format(basalt128('write-only').qps), format(basalt128('read-only').p99_latency_ms)]);
      // No figure without its provenance: the date, host and commit the report names.
      expect(cells[9]).toBe(`published report, measured 27 Nov 2026, ${doc.measured_at.slice(11, 16)} UTC on ${doc.host}, commit ${doc.commit}`);
    }
    expect((await rowOf('kv.standard.xlarge').getByRole('cell').allTextContents()).slice(6)).toEqual(['—', '—', '—', 'no report yet']);
    await snap(page, '46-published-reports-catalog');

    // The type's page: the published report with the same label, its headline and its charts (from its document).
    await table.getByRole('link', { name: TYPE, exact: true }).click();
    const doc = committed(TYPE);
    await page.getByRole('region', { name: `Latest report · published report, measured 27 Nov 2026, ${doc.measured_at.slice(11, 16)} UTC on ${doc.host}, commit ${doc.commit}` }).waitFor();
    const headline = await page.getByLabel('Headline figures').locator('dd').allTextContents();
    expect(headline[0]).toBe(format(doc.runs[0]!.scenarios.find((x) => x.server === 'basalt' && x.workload === 'read-only' && x.value_size === 128)!.qps));
    const suite = page.getByRole('region', { name: 'memtier-standard', exact: true });
    for (const chart of ['memtier-standard: ops/s by value size and pipeline', 'memtier-standard: ops/s, Basalt vs peer', 'memtier-standard: p99 latency, Basalt vs peer']) {
      await suite.getByRole('figure', { name: chart }).locator('.recharts-bar-rectangle').first().waitFor();
    }
    await page.getByRole('region', { name: 'encryption-overhead', exact: true }).getByRole('figure', { name: 'encryption-overhead: median ops/s by value size and encryption' }).waitFor();
  });

  test('an administrator publishes a shortened report from the page and follows it until it is published', { timeout: 1_500_000 }, async () => {
    await page.goto(`/projects/${projectId}/instance-types/${TYPE}`);
    await page.getByRole('button', { name: 'Publish report' }).click();
    const dialog = page.getByRole('dialog', { name: `Publish a report of ${TYPE}` });
    // memtier-standard alone: every other suite the dialog offers is unchecked, however many there are.
    const boxes = dialog.getByRole('checkbox');
    for (let i = 0; i < (await boxes.count()); i++) {
      if ((await boxes.nth(i).getAttribute('aria-label')) !== 'memtier-standard') await boxes.nth(i).uncheck();
    }
    await dialog.getByRole('button', { name: 'Publish', exact: true }).click();

    // Progress: the report's suites and its operation, live; no second report meanwhile.
    const progress = page.getByRole('region', { name: /Report in the making/ });
    await progress.getByRole('list', { name: 'Suites of the report' }).getByText('memtier-standard').waitFor();
    expect(await page.getByRole('button', { name: 'Publish report' }).isDisabled()).toBe(true);
    const asked = (await api.GET('/v1/instance-types/{id}/benchmarks', typePath)).data!.items;
    expect(asked.map((r) => [r.origin, r.suites])).toEqual([['local', ['memtier-standard']], ['published', ['memtier-standard', 'ycsb-standard', 'canonical', 'encryption-overhead']]]);
    await page.getByRole('region', { name: /Operation progress/ }).getByRole('list', { name: 'Operation log' }).waitFor({ timeout: 300_000 });
    await snap(page, '13-type-report-progress');

    // The report's end as the API says it; then the page has a minute to show it.
    const [report] = (await api.GET('/v1/instance-types/{id}/benchmarks', typePath)).data!.items;
    const operation = await waitForOperationEnd(report!.operation_id!, 1_200_000);
    expect(operation.status, `the report's operation: ${JSON.stringify(operation.error)}`).toBe('succeeded');
    // The published report's region is there from the start: wait for the one made here.
    const environment = page.getByRole('region', { name: /^Latest report · Basalt, / });
    try {
      await environment.waitFor({ timeout: 60_000 });
      await progress.waitFor({ state: 'detached', timeout: 60_000 });
    } catch (error) {
      const shot = await snap(page, '13-type-report-not-shown');
      const text = (await page.locator('main').innerText().catch(() => '(no main)')).slice(0, 2000);
      throw new Error(`the report succeeded but the page does not show it a minute later (${(error as Error).message.split('\n')[0]}; screenshot ${shot}); the page says:\n${text}`);
    }
    published = (await api.GET('/v1/instance-types/{id}/benchmarks/latest', typePath)).data!.report;
    expect(published.status).toBe('succeeded');
    expect(published.instance?.status).toBe('deleted');
    await environment.getByLabel('Environment').getByText(published.environment).waitFor();
    const headline = await environment.getByLabel('Headline figures').locator('dd').allTextContents();
    expect(headline.slice(0, 3)).toEqual([format(published.headline!.reads_per_sec), format(published.headline!.writes_per_sec), format(published.headline!.p99_latency_ms)]);

    // The memtier suite: its three charts, its table row by row, every command line.
    const run = published.runs.find((r) => r.workload === 'memtier-standard')!;
    const suite = page.getByRole('region', { name: 'memtier-standard', exact: true });
    for (const chart of ['memtier-standard: ops/s by value size and pipeline', 'memtier-standard: ops/s, Basalt vs peer', 'memtier-standard: p99 latency, Basalt vs peer']) {
      await suite.getByRole('figure', { name: chart }).locator('.recharts-bar-rectangle').first().waitFor();
    }
    const basalt = run.scenarios.filter((s) => s.server === 'basalt');
    const rows = suite.getByRole('table', { name: 'memtier-standard results' }).getByRole('row');
    expect(await rows.count()).toBe(basalt.length + 1);
    for (const [i, s] of basalt.entries()) {
      const cells = await rows.nth(i + 1).getByRole('cell').allTextContents();
      const peer = run.scenarios.find((p) => p.server !== 'basalt' && p.position === s.position);
      expect([cells[0], cells[4], cells[7], cells[10]]).toEqual([s.name, format(s.qps), format(s.p99_latency_ms), peer ? format(peer.qps) : '—']);
    }
    const asRun = await suite.getByLabel('basalt-bench commands (as run)', { exact: true }).textContent();
    expect(asRun!.split('\n')).toEqual(basalt.map((s) => s.command_line));
    await suite.getByLabel('memtier_benchmark commands', { exact: true }).getByText(basalt[0]!.memtier_command!, { exact: false }).waitFor();
    if (run.scenarios.some((s) => s.server !== 'basalt')) await suite.getByLabel(/^basalt-bench commands against the peer/).waitFor();

    // The white paper, through the console's proxy.
    const href = await environment.getByRole('link', { name: 'report.md' }).getAttribute('href');
    const markdown = await page.request.get(href!);
    expect(markdown.status()).toBe(200);
    expect(markdown.headers()['content-type']).toMatch(/^text\/markdown/);
    expect(await markdown.text()).toContain(TYPE);
    await snap(page, '13-type-report');
  });

  test("the catalog then shows Basalt's own figures with the report's date in place of the published ones", async () => {
    const small = (await api.GET('/v1/instance-types/{id}', typePath)).data!;
    expect(small.reference).toMatchObject({ report_id: published.id, origin: 'local', reads_per_sec: published.headline!.reads_per_sec, commit: published.commit, host: published.host });
    expect(published).toMatchObject({ origin: 'local', host: expect.stringMatching(/cores/) });
    await page.goto(`/projects/${projectId}/instance-types`);
    const table = page.getByRole('table', { name: 'Instance types' });
    const row = table.getByRole('row').filter({ has: page.getByRole('link', { name: TYPE, exact: true }) });
    await row.getByText(/^Basalt, \d{1,2} \w{3} \d{4}/).waitFor();
    const cells = await row.getByRole('cell').allTextContents();
    expect(cells.slice(6, 9)).toEqual([format(small.reference!.reads_per_sec), format(small.reference!.writes_per_sec), format(small.reference!.p99_latency_ms)]);
    // The other published type keeps its published figures; a type without any report shows none.
    const large = table.getByRole('row').filter({ has: page.getByRole('link', { name: 'kv.standard.large', exact: true }) });
    expect((await large.getByRole('cell').allTextContents()).at(-1)).toMatch(/^published report, measured 27 Nov 2026/);
    const xlarge = table.getByRole('row').filter({ has: page.getByRole('link', { name: 'kv.standard.xlarge', exact: true }) });
    expect((await xlarge.getByRole('cell').allTextContents()).at(-1)).toBe('no report yet');
  });

  test('a viewer sees the report but is offered no Publish action (and the API refuses one)', async () => {
    const viewer = { email: `viewer-${Date.now()}@e2e.test`, password: `pw-${Math.random().toString(36).slice(2)}-x` };
    expect((await api.POST('/v1/users', { body: viewer })).response.status).toBe(201);
    expect((await api.POST('/v1/projects/{project}/members', { params: { path: { project: projectId } }, body: { email: viewer.email, role: 'viewer' } })).response.status).toBe(201);
    const viewerPage = await ui.openPage(false);
    try {
      await logInThroughForm(viewerPage, viewer);
      await viewerPage.goto(`/projects/${projectId}/instance-types/${TYPE}`);
      await viewerPage.getByRole('region', { name: 'memtier-standard', exact: true }).getByRole('figure', { name: 'memtier-standard: ops/s, Basalt vs peer' }).waitFor();
      expect(await viewerPage.getByRole('button', { name: 'Publish report' }).count()).toBe(0);
    } finally {
      await viewerPage.close();
    }
    const { api: asViewer } = await apiSession(ui.platform.apiUrl, viewer);
    const refused = await asViewer.POST('/v1/instance-types/{id}/benchmarks', { ...typePath, body: {} });
    expect(refused.response.status).toBe(403);
  });
});

describe('a per-type benchmark report', () => {
  let customer: BasaltClient;
  beforeAll(async () => {
    const user = { email: `customer-${Date.now()}@e2e.test`, password: `pw-${Math.random().toString(36).slice(2)}-x` };
    expect((await api.POST('/v1/users', { body: user })).response.status).toBe(201);
    ({ api: customer } = await apiSession(ui.platform.apiUrl, user));
  });

  test('only an administrator may ask for one', async () => {
    const refused = await customer.POST('/v1/instance-types/{id}/benchmarks', { ...typePath, body: { suites: ['memtier-standard'] } });
    expect(refused.response.status).toBe(403);
    expect(refused.error?.code).toBe('forbidden');
  });

  test('is made on a temporary instance, served with its runs and headline, and the instance is gone after', async () => {
    // The report the page published above, as any signed-in caller reads it.
    expect(published, 'the page published no report').toBeDefined();
    const latest = (await customer.GET('/v1/instance-types/{id}/benchmarks/latest', typePath)).data!.report;
    expect(latest.id).toBe(published.id);
    expect(latest.status).toBe('succeeded');
    const instanceId = latest.instance!.id;
    expect(latest.suites).toEqual(['memtier-standard']);
    expect(latest.runs).toHaveLength(1);
    const run = latest.runs[0]!;
    expect(run).toMatchObject({ workload: 'memtier-standard', status: 'succeeded', instance_id: instanceId });
    const mine = run.scenarios.filter((s) => s.server === 'basalt');
    expect(mine).toHaveLength(6);
    expect(run.scenarios.filter((s) => s.server === 'redis')).toHaveLength(6);
    expect(latest.peers).toEqual([{ server: 'redis', version: expect.stringMatching(/^Redis 7/) }]);
    expect(latest.engine_version).toBe(mine[0]!.engine_version);
    expect(latest.environment).toMatch(/shared host/);
    // The headline is the rows' figures, not anything written by hand.
    const read = mine.find((s) => s.workload === 'read-only' && s.value_size === 128)!;
    const write = mine.find((s) => s.workload === 'write-only' && s.value_size === 128)!;
    expect(latest.headline).toMatchObject({ reads_per_sec: read.qps, writes_per_sec: write.qps, p99_latency_ms: read.p99_latency_ms });
    expect(latest.headline!.peer_ratio).toBeGreaterThan(0);
    for (const s of mine) expect(s.errors).toBe(0);

    // The white paper.
    const markdown = await customer.GET('/v1/instance-types/{id}/benchmarks/latest/report.md', { ...typePath, parseAs: 'text' });
    expect(markdown.response.status).toBe(200);
    expect(markdown.response.headers.get('content-type')).toMatch(/^text\/markdown/);
    const text = markdown.data as unknown as string;
    expect(text).toContain(`# Basalt benchmark report: ${TYPE}`);
    expect(text).toContain('## Conclusions (computed from the tables)');
    expect(text).toMatch(/memtier-standard: Basalt's throughput was [\d.]+× Redis 7/);
    expect(text).toContain(read.command_line);
    const byId = await customer.GET('/v1/instance-types/{id}/benchmarks/{report}/report.md', { params: { path: { id: TYPE, report: latest.id } }, parseAs: 'text' });
    expect(byId.data).toBe(text);
    // The report's document, from which its markdown is made (what a publish commits to docs/benchmarks).
    const document = await customer.GET('/v1/instance-types/{id}/benchmarks/{report}/report.json', { params: { path: { id: TYPE, report: latest.id } } });
    expect(document.data).toMatchObject({ format: 'basalt-type-report/1', instance_type: TYPE, commit: latest.commit, host: latest.host, provenance_note: null });
    expect(renderBenchmarkReport(document.data as unknown as TypeReportDocument)).toBe(text);

    // The catalog's figures are this report's; a type without a report shows none.
    const catalog = (await customer.GET('/v1/instance-types')).data!.items;
    expect(catalog.find((t) => t.id === TYPE)!.reference).toEqual({
      report_id: latest.id,
      published_at: latest.finished_at,
      origin: 'local',
      measured_at: latest.measured_at,
      host: latest.host,
      commit: latest.commit,
      reads_per_sec: read.qps,
      writes_per_sec: write.qps,
      p99_latency_ms: read.p99_latency_ms,
    });
    expect(catalog.find((t) => t.id === 'kv.standard.large')!.reference?.origin).toBe('published');
    expect(catalog.find((t) => t.id === 'kv.standard.xlarge')!.reference).toBeNull();

    // The temporary instance is deleted, in no project the admin or the customer sees, and
    // nothing of it or of the run is left on the host.
    expect(latest.instance).toEqual({ id: instanceId, status: 'deleted' });
    for (const client of [api, customer]) {
      for (const project of (await client.GET('/v1/projects')).data!.items) {
        const instances = (await client.GET('/v1/projects/{project}/instances', { params: { path: { project: project.id } } })).data!.items;
        expect(instances.map((i) => i.id)).not.toContain(instanceId);
      }
    }
    const vms = path.join(ui.platform.dataDir, 'vms');
    expect(fs.existsSync(vms) ? fs.readdirSync(vms).filter((vm) => vm.startsWith(instanceId)) : []).toEqual([]);
    const hex = run.id.replace(/-/g, '').slice(0, 12);
    expect(execFileSync('ip', ['netns', 'list'], { encoding: 'utf8' })).not.toMatch(new RegExp(`basalt-(bench|peer)-${hex}`));
  });
});
