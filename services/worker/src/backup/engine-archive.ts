// The engine's side of backups (issue 44), driven as the control plane's own user: its log
// segments as BACKUP SEGMENTS lists them, their bytes (BACKUP READ: sealed on the node with the
// instance's data key, so the log leaves it encrypted), the mark that a segment is stored
// (BACKUP ARCHIVED, after which compaction may remove it) and a base (BACKUP BASE). One
// connection for a pass, through a maintained client (ioredis: binary-safe bulk replies).
import { Redis } from 'ioredis';
import type { InstanceRow } from '@basalt/db';
import type { JobContext } from '../context.js';
import type { Node } from '../stack.js';
import { CONTROL_USER } from '../engine-users.js';
import { ENGINE_PORT, ENGINE_TLS_PORT } from '../engine-settings.js';
import { requireHostRoute } from '../host-route.js';
import { instanceCa } from '../instance-ca.js';

/** Bytes one BACKUP READ asks for (the engine's bound). */
export const READ_BYTES = 8 << 20;

export interface SegmentInfo {
  id: number;
  /** What may be read: all of a sealed segment, the durable prefix of the active one. */
  bytes: number;
  firstLsn: number;
  lastLsn: number;
  /** Unix ms; 0: unknown (a segment written before log format 2). */
  firstTimeMs: number;
  lastTimeMs: number;
  sealed: boolean;
  archived: boolean;
}

export interface EngineBase {
  endLsn: number;
  endTimeMs: number;
  segments: SegmentInfo[];
}

type Reply = Buffer | number | null | Reply[];

function pairs(reply: Reply): Map<string, Reply> {
  if (!Array.isArray(reply) || reply.length % 2 !== 0) throw new Error(`BACKUP answered ${JSON.stringify(reply)}, not name/value pairs`);
  const out = new Map<string, Reply>();
  for (let i = 0; i < reply.length; i += 2) out.set(String(reply[i]), reply[i + 1]!);
  return out;
}

function int(fields: Map<string, Reply>, name: string): number {
  const value = Number(String(fields.get(name)));
  if (!Number.isSafeInteger(value)) throw new Error(`BACKUP reply has no whole number ${name}`);
  return value;
}

function segmentOf(reply: Reply): SegmentInfo {
  const f = pairs(reply);
  return {
    id: int(f, 'id'),
    bytes: int(f, 'bytes'),
    firstLsn: int(f, 'first-lsn'),
    lastLsn: int(f, 'last-lsn'),
    firstTimeMs: int(f, 'first-time-ms'),
    lastTimeMs: int(f, 'last-time-ms'),
    sealed: int(f, 'sealed') === 1,
    archived: int(f, 'archived') === 1,
  };
}

export class EngineArchive {
  /** When the next read may start: reads are paced to `bytesPerSecond`. */
  private nextReadAt = 0;

  private constructor(
    private readonly client: Redis,
    readonly node: Node,
    private readonly bytesPerSecond: number,
  ) {}

  /**
   * `paced`: reads at most BASALT_BACKUP_READ_MBPS (a base, which may read a whole log); the
   * archiver's are not, as they read what was just written, once, and must keep up with it.
   */
  static async open(ctx: JobContext, instance: Pick<InstanceRow, 'id' | 'tlsEnabled'>, node: Node, options: { paced?: boolean; timeoutMs?: number } = {}): Promise<EngineArchive> {
    const timeoutMs = options.timeoutMs ?? 10_000;
    await requireHostRoute(node.private_ip, ctx.config.bridge);
    const password = (await ctx.repo.controlCredentials(ctx.config.masterKey).prepare(instance.id)).current;
    const tls = instance.tlsEnabled ? { ca: (await instanceCa(ctx, instance.id)).certificate, checkServerIdentity: () => undefined } : undefined;
    const client = new Redis({
      host: node.private_ip,
      port: instance.tlsEnabled ? ENGINE_TLS_PORT : ENGINE_PORT,
      username: CONTROL_USER,
      password,
      tls,
      lazyConnect: true,
      connectTimeout: timeoutMs,
      commandTimeout: timeoutMs * 3,
      maxRetriesPerRequest: 0,
      enableOfflineQueue: false,
      retryStrategy: () => null,
    });
    // An unhandled 'error' event would end the worker; the command's own rejection says it.
    client.on('error', () => {});
    await client.connect();
    return new EngineArchive(client, node, options.paced ? ctx.config.backupReadMbps * 1e6 : Infinity);
  }

  private call(...args: (string | number)[]): Promise<Reply> {
    return this.client.callBuffer('BACKUP', ...args.map(String)) as Promise<Reply>;
  }

  /**
   * Why this node cannot be archived yet, or null: its engine keeps no archive (compaction
   * would remove segments before they are stored) or has no backup key (its log would leave
   * it in the clear). Both come with the deploy that gives the node its key.
   */
  async notReady(): Promise<string | null> {
    const settings = new Map<string, string>();
    for (const name of ['archive', 'backup-encryption']) {
      const reply = (await this.client.call('CONFIG', 'GET', name)) as string[];
      if (reply.length >= 2) settings.set(reply[0]!, reply[1]!);
    }
    if (settings.get('archive') !== 'yes') return `${this.node.name} keeps no log archive yet (archive no): the next deploy turns it on`;
    if (settings.get('backup-encryption') !== 'yes') return `${this.node.name} has no backup key yet: the next deploy gives it one`;
    return null;
  }

  async segments(): Promise<SegmentInfo[]> {
    const reply = await this.call('SEGMENTS');
    if (!Array.isArray(reply)) throw new Error('BACKUP SEGMENTS did not answer an array');
    return reply.map(segmentOf);
  }

  /**
   * Up to `count` bytes of segment `id` from `offset`, as the node sealed them. When paced, a
   * base that reads a whole log (an instance's first) takes the engine's CPU at a bounded rate
   * (bench/scripts/backup-impact.sh measures what an unpaced read costs the clients).
   */
  async read(id: number, offset: number, count: number): Promise<Buffer> {
    const wait = this.nextReadAt - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    this.nextReadAt = Math.max(Date.now(), this.nextReadAt) + (count / this.bytesPerSecond) * 1000;
    const reply = await this.call('READ', id, offset, count);
    if (!Buffer.isBuffer(reply)) throw new Error(`BACKUP READ ${id} ${offset} did not answer bytes`);
    return reply;
  }

  async markArchived(id: number): Promise<void> {
    await this.call('ARCHIVED', id);
  }

  async base(): Promise<EngineBase> {
    const f = pairs(await this.call('BASE'));
    const segments = f.get('segments');
    if (!Array.isArray(segments)) throw new Error('BACKUP BASE gave no segments');
    return { endLsn: int(f, 'end-lsn'), endTimeMs: int(f, 'end-time-ms'), segments: segments.map(segmentOf) };
  }

  close(): void {
    this.client.disconnect();
  }
}
