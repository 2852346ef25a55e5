// The control plane's own metrics (the backup age and archive lag of every instance, which no
// node knows), served by the worker on `/metrics` for the same Prometheus, the same way nodes
// are: a file-based target in `<sd>/targets/`, scraped with the same bearer token. Every worker
// serves (the figures come from PostgreSQL, so any one answers the same); the one holding the
// `basalt-metrics` lease writes the one target file with its own address, so each series is
// scraped once, and when that worker dies another takes the lease and points the file at
// itself. The target carries no basalt_instance label: the scrape-health check skips it, and the
// samples' own basalt_instance/basalt_project labels are what the API's queries select on.
import { timingSafeEqual } from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { JobContext } from '../context.js';
import { LeasedRounds } from '../leased-rounds.js';
import type { MonitoringConfig } from './monitoring-config.js';
import { exposition, type Gauge } from './exposition.js';
import { ensureScrapeToken } from './scrape-token.js';

/** How often the lease holder checks the target file still names it. */
const TARGET_CHECK_MS = 10_000;

export function controlPlaneTargetsFile(sdDir: string): string {
  return path.join(sdDir, 'targets', 'control-plane.json');
}

function authorized(header: string | undefined, token: string): boolean {
  const given = Buffer.from(header ?? '');
  const expected = Buffer.from(`Bearer ${token}`);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export class ControlPlaneMetrics {
  private server: http.Server | undefined;
  private rounds: LeasedRounds | undefined;
  private target = '';

  constructor(
    private readonly ctx: JobContext,
    private readonly monitoring: MonitoringConfig,
    private readonly collect: () => Promise<Gauge[]>,
  ) {}

  async start(): Promise<void> {
    const token = ensureScrapeToken(this.monitoring.sdDir);
    const server = http.createServer((request, response) => {
      if (request.method !== 'GET' || request.url?.split('?')[0] !== '/metrics') return void response.writeHead(404).end();
      if (!authorized(request.headers.authorization, token)) return void response.writeHead(401).end();
      this.collect()
        .then((gauges) => response.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' }).end(exposition(gauges)))
        .catch((error: Error) => {
          this.ctx.log(`control-plane metrics: ${error.message}`);
          response.writeHead(503).end();
        });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.monitoring.metricsPort, this.monitoring.metricsHost, () => resolve());
    });
    this.server = server;
    const { address, port } = server.address() as AddressInfo;
    this.target = address.includes(':') ? `[${address}]:${port}` : `${address}:${port}`;
    this.ctx.log(`control-plane metrics on http://${this.target}/metrics`);
    this.rounds = new LeasedRounds(this.ctx, 'control-plane metrics', `the control plane's metrics target (${this.target})`, 'basalt-metrics', TARGET_CHECK_MS, () => this.writeTarget());
    this.rounds.start();
  }

  async stop(): Promise<void> {
    await this.rounds?.stop();
    const file = controlPlaneTargetsFile(this.monitoring.sdDir);
    // Our file goes with us; the next lease holder writes its own.
    if ((await fs.readFile(file, 'utf8').catch(() => '')) === this.targetFileText()) await fs.rm(file, { force: true });
    await new Promise((resolve) => (this.server ? this.server.close(resolve) : resolve(undefined)));
  }

  private targetFileText(): string {
    return `${JSON.stringify([{ targets: [this.target], labels: { basalt_component: 'control-plane' } }], null, 2)}\n`;
  }

  /** Makes the target file name this worker (atomically: Prometheus reads `*.json` only). */
  private async writeTarget(): Promise<void> {
    const file = controlPlaneTargetsFile(this.monitoring.sdDir);
    const text = this.targetFileText();
    if ((await fs.readFile(file, 'utf8').catch(() => '')) === text) return;
    await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    const temp = `${file}.${process.pid}.tmp`;
    await fs.writeFile(temp, text, { mode: 0o600 });
    await fs.rename(temp, file);
  }
}
