// Health after `running`: every running instance's endpoints are asked PING on an interval,
// and `health` (healthy, degraded, unavailable) with its reason follows what they answer.
// One worker at a time watches (a lease), so many workers do not multiply the probes. The
// probe needs no credentials: any RESP reply — PONG, or NOAUTH from an engine that wants a
// password — proves the engine serves; no reply is what counts as down. With a Prometheus,
// an instance whose metrics were not scraped for a minute is `degraded` too, and so is one
// whose log archive is more than a minute behind (backup/archive-health.ts).
import type { InstanceRow } from '@basalt/db';
import type { JobContext } from './context.js';
import { LeasedRounds } from './leased-rounds.js';
import { requireHostRoute } from './host-route.js';
import { sendCommands } from './resp.js';
import { storedCaCertificate, type Endpoint } from './engine-deploy.js';
import { scrapeStates, unscrapedReason } from './monitoring/scrape-health.js';
import { archiveLagReason } from './backup/archive-health.js';

export interface HealthVerdict {
  health: 'healthy' | 'degraded' | 'unavailable';
  reason: string | null;
}

/** A reply slower than this makes a node degraded. */
const SLOW_MS = 1_000;
/** Failed rounds in a row before a node counts as down (one lost packet is not an outage). */
const FAILURES_TO_DOWN = 2;

export interface NodeProbe {
  endpoint: string;
  ok: boolean;
  ms: number;
  error?: string;
}

/**
 * What the nodes' probes (failures counted over rounds) say of the instance, and Prometheus:
 * `unscraped` (why its metrics are missing, if they are) makes an answering instance degraded.
 */
export function verdictOf(probes: NodeProbe[], failuresInARow: (endpoint: string) => number, unscraped: string | null = null): HealthVerdict {
  const down = probes.filter((p) => !p.ok && failuresInARow(p.endpoint) >= FAILURES_TO_DOWN);
  const slow = probes.filter((p) => p.ok && p.ms > SLOW_MS);
  if (probes.length > 0 && down.length === probes.length) {
    return { health: 'unavailable', reason: down.map((p) => `${p.endpoint}: ${p.error}`).join('; ') };
  }
  if (down.length > 0) return { health: 'degraded', reason: `${down.length} of ${probes.length} nodes do not answer: ${down.map((p) => `${p.endpoint}: ${p.error}`).join('; ')}` };
  if (slow.length > 0) return { health: 'degraded', reason: slow.map((p) => `${p.endpoint} answered PING in ${p.ms} ms`).join('; ') };
  if (unscraped) return { health: 'degraded', reason: unscraped };
  return { health: 'healthy', reason: null };
}

async function probe(ctx: JobContext, instance: InstanceRow, endpoint: Endpoint): Promise<NodeProbe> {
  const name = `${endpoint.host}:${endpoint.port}`;
  const started = Date.now();
  try {
    await requireHostRoute(endpoint.host, ctx.config.bridge);
    const ca = endpoint.tls ? storedCaCertificate(instance) : undefined;
    const [reply] = await sendCommands(endpoint.host, endpoint.port, [['PING']], 3_000, ca ? { caPem: ca } : undefined);
    if (!reply || !/^[+-]/.test(reply)) throw new Error(`unexpected reply ${JSON.stringify(reply)}`);
    return { endpoint: name, ok: true, ms: Date.now() - started };
  } catch (error) {
    return { endpoint: name, ok: false, ms: Date.now() - started, error: (error as Error).message };
  }
}

export class HealthMonitor {
  private readonly failures = new Map<string, number>();
  /** When this monitor first saw each instance running (the grace before a missing target counts). */
  private readonly runningSince = new Map<string, number>();
  private readonly rounds: LeasedRounds;

  constructor(
    private readonly ctx: JobContext,
    intervalMs: number,
  ) {
    this.rounds = new LeasedRounds(ctx, 'health monitor', 'running instances', 'basalt-health-monitor', intervalMs, () => this.checkRunning());
  }

  start(): void {
    this.rounds.start();
  }

  stop(): Promise<void> {
    return this.rounds.stop();
  }

  /** One round over every running instance (only while this worker holds the monitor's lease). */
  checkAll(): Promise<void> {
    return this.rounds.once();
  }

  private async checkRunning(): Promise<void> {
    const running = (await this.ctx.repo.listRunningInstances()).filter((i) => !this.ctx.unavailableRegions.has(i.region));
    const now = Date.now();
    for (const id of this.runningSince.keys()) if (!running.some((i) => i.id === id)) this.runningSince.delete(id);
    for (const instance of running) if (!this.runningSince.has(instance.id)) this.runningSince.set(instance.id, now);
    // One query for every instance; Prometheus unreachable says nothing about the instances.
    const monitoring = this.ctx.config.monitoring;
    const scraped = monitoring
      ? await scrapeStates(monitoring).catch((error) => {
          this.ctx.log(`health monitor: scrape check skipped: ${(error as Error).message}`);
          return undefined;
        })
      : undefined;
    await Promise.all(
      running.map(async (instance) => {
        const since = this.runningSince.get(instance.id) ?? now;
        const unscraped = scraped ? unscrapedReason(scraped.get(instance.id), since, now) : null;
        await this.check(instance, unscraped ?? (await archiveLagReason(this.ctx, instance, since, now)));
      }),
    );
  }

  private async check(instance: InstanceRow, unscraped: string | null): Promise<void> {
    const endpoints = (Array.isArray(instance.endpoints) ? instance.endpoints : []) as Endpoint[];
    if (endpoints.length === 0) return;
    const probes = await Promise.all(endpoints.map((endpoint) => probe(this.ctx, instance, endpoint)));
    for (const p of probes) this.failures.set(p.endpoint, p.ok ? 0 : (this.failures.get(p.endpoint) ?? 0) + 1);
    const verdict = verdictOf(probes, (endpoint) => this.failures.get(endpoint) ?? 0, unscraped);
    // A node that failed once is not down yet: the instance keeps what it had until it is.
    const pending = probes.some((p) => !p.ok && (this.failures.get(p.endpoint) ?? 0) < FAILURES_TO_DOWN);
    if (pending && verdict.health === 'healthy') return;
    if (instance.health === verdict.health && instance.healthReason === verdict.reason) return;
    // Only while still running: an operation that started meanwhile owns the instance.
    const written = await this.ctx.repo.updateHealthIfRunning(instance.id, verdict.health, verdict.reason);
    if (written) this.ctx.log(`[${instance.id}] health ${instance.health ?? 'unknown'} -> ${verdict.health}${verdict.reason ? `: ${verdict.reason}` : ''}`);
  }
}
