// A per-type report made from its stored runs: the runs as the API serves them, made into the
// report's document (typeReportDocumentOf), and from the document alone the white paper, the
// catalog's headline, the peers and the environment sentence (typeReportDerived): all in
// @basalt/api-client, so the committed reports' loader computes them the same way.
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { benchmarkRunOf, typeReportDerived, typeReportDocumentOf, type Schemas } from '@basalt/api-client';
import type { BenchmarkRow, InstanceRow, InstanceTypeRow, TypeReportPatch } from '@basalt/db';
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

/** The report of the stored runs: its document, and what its row holds beside it, all computed from the document. */
export async function renderReport(ctx: JobContext, instance: InstanceRow, type: InstanceTypeRow, rows: BenchmarkRow[], startedAt: Date, load: string): Promise<TypeReportPatch> {
  const scenarios = await ctx.repo.benchmarks().listScenarios(rows.map((r) => r.id));
  const runs: Schemas['BenchmarkDto'][] = rows.map((row) => benchmarkRunOf(row, scenarios));
  const cpu = os.cpus();
  const host = `${cpu[0]?.model ?? 'unknown CPU'}, ${cpu.length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Linux ${os.release()}`;
  const meta = { instanceType: type.id, typeSize: `${type.vcpu} vCPU, ${type.memoryGib} GiB`, measuredAt: startedAt.toISOString(), host, load, commit: sourceCommit(ctx.config.root) ?? null };
  const document = typeReportDocumentOf(meta, runs);
  const { markdown, headline, peers, environment, engineVersion } = typeReportDerived(document);
  ctx.log(`[${instance.id}] report of ${type.id}: ${runs.length} run(s), reads/s ${headline.reads_per_sec ?? '—'}, peer ratio ${headline.peer_ratio ?? '—'}`);
  return { document, markdown, headline, peers, environment, engineVersion, host, sourceCommit: meta.commit };
}
