// A benchmark from the console, against the whole platform as `npm start` runs it (API, worker,
// console; a local VM): on a running instance's Benchmarks tab, a custom run with flags typed in
// the form finishes and its scenario shows in the results table with the figures the API
// serves, beside the command to rerun it with memtier_benchmark; a second, long run is
// stopped with Cancel; encryption-overhead picked in the form shows its overhead table, each
// overhead the one computed from the rows the API serves. Nothing here writes a benchmark row:
// the worker's job does.
import type { BasaltClient } from '@basalt/api-client';
import { encryptionOverhead } from '@basalt/api-client/rules';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { startConsole, type ConsoleSession } from './support/console.js';
import { createRunningInstance, deleteInstanceAndWait } from './support/instance.js';
import { snap } from './support/screenshots.js';

let ui: ConsoleSession;
let page: Page;
let api: BasaltClient;
let projectId = '';
let instanceId = '';

const instancePath = () => ({ params: { path: { project: projectId, instance: instanceId } } });

beforeAll(async () => {
  ui = await startConsole({ worker: true, viewport: { width: 1440, height: 1000 } });
  ({ page, api, projectId } = ui);
  instanceId = (await createRunningInstance(api, projectId, 'bench-console')).instance.id;
}, 300_000);

afterEach(() => ui.checkPageErrors());

afterAll(async () => {
  // A VM left behind would outlive the test: delete the instance and wait for it.
  if (instanceId) await deleteInstanceAndWait(api, projectId, instanceId);
  await ui?.stop();
}, 300_000);

async function startCustomRun(flags: string) {
  await page.getByRole('combobox', { name: 'Suite' }).click();
  await page.getByRole('option', { name: /^custom/ }).click();
  await page.getByLabel('basalt-bench flags').fill(flags);
  await page.getByRole('button', { name: 'Run benchmark' }).click();
  await page.getByText('Benchmark queued').waitFor();
}

describe('benchmarks from the console', () => {
  test('a custom run finishes and shows its scenario, figures and memtier_benchmark command', async () => {
    await page.goto(`/projects/${projectId}/instances/${instanceId}`);
    await page.getByRole('tab', { name: 'Benchmarks' }).click();
    await page.getByText('No benchmark has run on this instance yet', { exact: false }).waitFor();
    // A flag the worker would never take is named before any request.
    await page.getByRole('combobox', { name: 'Suite' }).click();
    await page.getByRole('option', { name: /^custom/ }).click();
    await page.getByLabel('basalt-bench flags').fill('--server=192.0.2.1');
    await page.getByText('is not a flag a custom run may set', { exact: false }).waitFor();
    expect(await page.getByRole('button', { name: 'Run benchmark' }).isDisabled()).toBe(true);

    await page.getByLabel('basalt-bench flags').fill('--threads=1 --clients=4 --requests=3000 --ratio=1:1 --data-size=256');
    await page.getByRole('button', { name: 'Run benchmark' }).click();
    await page.getByText('Benchmark queued').waitFor();
    const latest = page.getByRole('region', { name: /Latest run/ });
    await latest.getByText('succeeded', { exact: true }).waitFor({ timeout: 120_000 });

    const listed = (await api.GET('/v1/projects/{project}/instances/{instance}/benchmarks', instancePath())).data!.items;
    expect(listed).toHaveLength(1);
    const scenario = listed[0]!.scenarios[0]!;
    const results = page.getByRole('table', { name: 'Benchmark results' });
    const row = results.getByRole('row').filter({ hasText: 'custom' });
    const cells = await row.getByRole('cell').allTextContents();
    const format = (n: number | null) => new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 }).format(n!);
    expect(cells).toEqual(['custom', '256 B', '4', '1', format(scenario.qps), format(scenario.avg_latency_ms), format(scenario.p50_latency_ms), format(scenario.p99_latency_ms), format(scenario.p999_latency_ms), '0', '—', '—', '—']);
    await page.getByLabel('memtier_benchmark commands', { exact: true }).getByText(scenario.memtier_command!).waitFor();
    expect(scenario.memtier_command).toMatch(/^memtier_benchmark --server=\S+ --port=6379 '--authenticate=default:<password>' --threads=1 --clients=4 --requests=3000 --ratio=1:1 --data-size=256 /);
    await page.getByRole('figure', { name: 'Throughput by workload' }).locator('.recharts-bar-rectangle').first().waitFor();
    await page.getByRole('list', { name: 'How this run was set up' }).getByText('Peer: no peer for a custom run.').waitFor();
    await snap(page, '13-benchmark-results', { docs: true });
  }, 180_000);

  test('a long run shows live progress and stops with Cancel', async () => {
    await startCustomRun('--threads=1 --clients=4 --test-time=60 --ratio=1:1');
    const progress = page.getByRole('region', { name: /Operation progress/ });
    await progress.getByText(/scenario 1 of 1: custom: \d+ ops\/s/).first().waitFor({ timeout: 60_000 });
    const latest = page.getByRole('region', { name: /Latest run/ });
    await latest.getByRole('button', { name: 'Cancel' }).click();
    const asked = Date.now();
    await latest.getByText('cancelled', { exact: true }).waitFor({ timeout: 20_000 });
    console.log(`Cancel clicked -> the console shows cancelled after ${((Date.now() - asked) / 1000).toFixed(1)} s`);
    const runs = (await api.GET('/v1/projects/{project}/instances/{instance}/benchmarks', instancePath())).data!.items;
    expect(runs.map((r) => r.status)).toEqual(['cancelled', 'succeeded']);
  }, 180_000);

  test('encryption-overhead from the picker: the overhead table beside the engine without encryption', async () => {
    await page.getByRole('combobox', { name: 'Suite' }).click();
    await page.getByRole('option', { name: /^encryption-overhead/ }).click();
    await page.getByRole('button', { name: 'Run benchmark' }).click();
    await page.getByText('Benchmark queued').waitFor();
    const latest = page.getByRole('region', { name: /Latest run/ });
    await latest.getByText('Latest run: basalt-bench · encryption-overhead').waitFor();
    await latest.getByText('succeeded', { exact: true }).waitFor({ timeout: 240_000 });
    const run = (await api.GET('/v1/projects/{project}/instances/{instance}/benchmarks', instancePath())).data!.items[0]!;
    expect(run.workload).toBe('encryption-overhead');
    const expected = encryptionOverhead(run.scenarios);
    expect(expected).toHaveLength(8);
    const rows = latest.getByRole('table', { name: 'Encryption overhead' }).getByRole('row');
    await rows.nth(8).waitFor();
    const format = (n: number | null) => new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 }).format(n!);
    for (const [i, row] of expected.entries()) {
      const cells = await rows.nth(i + 1).getByRole('cell').allTextContents();
      const overhead = row.variant.tls || row.variant.at_rest ? `${row.overheadPercent! >= 0 ? '+' : '−'}${Math.abs(row.overheadPercent!).toFixed(1)}%` : '—';
      expect(cells).toEqual([row.valueSize === 128 ? '128 B' : '4 KB', row.label, '3', format(row.baselineQps), format(row.qps), `${format(row.minQps)}–${format(row.maxQps)}`, overhead, format(row.p99LatencyMs)]);
      console.log(cells.join(' | '));
    }
    await page.getByRole('list', { name: 'How this run was set up' }).getByText(/^Scaling: 8 connections .* 3 rounds of the list .* each run against a fresh, empty engine/).waitFor();
    await latest.getByRole('figure', { name: 'Median ops/s by value size and encryption' }).locator('.recharts-bar-rectangle').first().waitFor();
    await page.getByRole('list', { name: 'How this run was set up' }).getByText(/^Engines measured \(one per scenario, started and removed by the run\): basalt-server .* cgroup of 1 vCPU \/ 2048 MiB/).waitFor();
  }, 300_000);
});
