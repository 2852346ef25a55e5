// A per-type report made from its stored runs: the runs as the API serves them, the white
// paper from renderBenchmarkReport, the catalog's headline from reportHeadline (both in
// @basalt/api-client: nothing computed twice), the peers and an honest environment sentence.
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { benchmarkRunOf, renderBenchmarkReport, reportHeadline, type Schemas } from '@basalt/api-client';
import type { BenchmarkRow, InstanceRow, InstanceTypeRow, ReportHeadline, ReportPeer, TypeReportPatch } from '@basalt/db';
import type { JobContext } from '../context.js';

/** The 1-minute load average, sampled while the suites run (the host is shared). */
export class LoadSampler {
  private readonly samples: number[] = [];
  private readonly timer: NodeJS.Timeout;

  constructor(everyMs = 5_000) {
    this.samples.push(os.loadavg()[0]!);
    this.timer = setInterval(() => this.samples.push(os.loadavg()[0]!), everyMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  describe(): string {
    const s = this.samples;
    const mean = s.reduce((a, b) => a + b, 0) / s.length;
    return `1-minute load average sampled every 5 s during the runs: ${Math.min(...s).toFixed(2)}–${Math.max(...s).toFixed(2)} (mean ${mean.toFixed(2)}) on ${os.cpus().length} cores, other work sharing them`;
  }
}

/** The commit of the tree the worker (and the engine it deploys) was built from, when it is a git checkout. */
function sourceCommit(root: string): string | undefined {
  try {
    return execFileSync('git', ['-C', root, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8', timeout: 5_000, stdio: ['ignore', 'pipe', 'ignore'] }).trim() || undefined;
  } catch {
    return undefined;
  }
}

interface RunResults {
  client?: { address?: string; network_namespace?: boolean; bridge?: string | null };
  /** encryption-overhead: where its engines (one per scenario, not the instance) ran. */
  engines?: { placement?: string } | null;
  peer?: { server: ReportPeer['server']; version: string; placement?: string } | null;
}

export async function renderReport(ctx: JobContext, instance: InstanceRow, type: InstanceTypeRow, rows: BenchmarkRow[], startedAt: Date, load: string): Promise<TypeReportPatch> {
  const scenarios = await ctx.repo.benchmarks().listScenarios(rows.map((r) => r.id));
  const runs: Schemas['BenchmarkDto'][] = rows.map((row) => benchmarkRunOf(row, scenarios));
  const cpu = os.cpus();
  const host = `${cpu[0]?.model ?? 'unknown CPU'}, ${cpu.length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Linux ${os.release()}`;
  const typeSize = `${type.vcpu} vCPU, ${type.memoryGib} GiB`;
  const markdown = renderBenchmarkReport({ instanceType: type.id, typeSize, date: startedAt.toISOString(), host, load, commit: sourceCommit(ctx.config.root) }, runs);
  const results = rows.map((r) => (r.results ?? {}) as RunResults);
  const peers = new Map<string, ReportPeer>();
  for (const peer of results.map((r) => r.peer)) if (peer) peers.set(`${peer.server} ${peer.version}`, { server: peer.server, version: peer.version });
  const client = results.find((r) => r.client)?.client;
  const clientPlace = client?.network_namespace ? `in a network namespace of its own on bridge ${client.bridge} (${client.address})` : `on the host itself (${client?.address ?? '?'})`;
  const environment = [
    `A shared host (${host}), not dedicated hardware; ${load}.`,
    `The instance ran in a local VM of ${type.id} (${typeSize}), the client basalt-bench ${clientPlace}, each peer in a network namespace and cgroup of the same size: client, instance and peers all shared the host's cores.`,
    ...(results.some((r) => r.engines?.placement)
      ? ["encryption-overhead measured engines of the instance's build that its run started beside the instance, one per scenario, in a network namespace and cgroup of the same size (not the instance itself)."]
      : []),
  ].join(' ');
  const engineVersion = runs.flatMap((r) => r.scenarios).find((s) => s.server === 'basalt')?.engine_version ?? null;
  const headline: ReportHeadline = reportHeadline(runs);
  ctx.log(`[${instance.id}] report of ${type.id}: ${runs.length} run(s), reads/s ${headline.reads_per_sec ?? '—'}, peer ratio ${headline.peer_ratio ?? '—'}`);
  return { markdown, headline, peers: [...peers.values()], environment, engineVersion };
}
