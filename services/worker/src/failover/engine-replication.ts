// The engine's replication, driven as the control plane's own user over RESP (issue 15): who
// answers, how far each node's log goes, promote a replica, point one at a new primary,
// refuse or allow writes, and the replication mode. Every address is checked to stay on
// this host's bridge before anything connects to it.
import type { InstanceRow } from '@basalt/db';
import type { JobContext } from '../context.js';
import type { Node } from '../stack.js';
import { CONTROL_USER } from '../engine-users.js';
import { ENGINE_PORT, ENGINE_TLS_PORT } from '../engine-settings.js';
import { infoAs, sendCommands, type TlsTarget } from '../resp.js';
import { requireHostRoute } from '../host-route.js';
import { instanceCa } from '../instance-ca.js';

/** A node's replication as its INFO says. */
export interface ReplicationState {
  role: 'master' | 'slave';
  /** How far its log goes in the primary's stream: master_repl_offset, or slave_repl_offset on a replica. */
  offset: number;
  /** A replica: its link to the primary is up. */
  linkUp: boolean;
  /** A primary: lag_bytes of each connected replica, by its address. */
  replicaLag: Map<string, number>;
}

export class EngineReplication {
  private readonly instanceId: string;
  /** With TLS the plaintext port is off: the TLS port, checked against the instance's CA. */
  private readonly port: number;
  private secureTarget: Promise<TlsTarget> | undefined;

  constructor(
    private readonly ctx: JobContext,
    private readonly instance: Pick<InstanceRow, 'id' | 'tlsEnabled'>,
  ) {
    this.instanceId = instance.id;
    this.port = instance.tlsEnabled ? ENGINE_TLS_PORT : ENGINE_PORT;
  }

  private async password(): Promise<string> {
    return (await this.ctx.repo.controlCredentials(this.ctx.config.masterKey).prepare(this.instanceId)).current;
  }

  private secure(): Promise<TlsTarget | undefined> {
    if (!this.instance.tlsEnabled) return Promise.resolve(undefined);
    this.secureTarget ??= instanceCa(this.ctx, this.instanceId).then((ca) => ({ caPem: ca.certificate }));
    return this.secureTarget;
  }

  /** Any RESP reply to PING within `timeoutMs` (NOAUTH included): the engine serves. */
  answers(node: Node, timeoutMs: number): Promise<boolean> {
    return this.addressAnswers(node.private_ip, timeoutMs);
  }

  /** As `answers`, at one of the instance's addresses (a floating one: whoever holds it). */
  async addressAnswers(address: string, timeoutMs: number): Promise<boolean> {
    try {
      await requireHostRoute(address, this.ctx.config.bridge);
      const [reply] = await sendCommands(address, this.port, [['PING']], timeoutMs, await this.secure());
      return reply !== undefined && /^[+-]/.test(reply);
    } catch {
      return false;
    }
  }

  async state(node: Node, timeoutMs = 2_000): Promise<ReplicationState> {
    await requireHostRoute(node.private_ip, this.ctx.config.bridge);
    const info = await infoAs(node.private_ip, this.port, CONTROL_USER, await this.password(), 'replication', await this.secure(), timeoutMs);
    const role = info.role === 'slave' ? 'slave' : 'master';
    const replicaLag = new Map<string, number>();
    for (const [key, value] of Object.entries(info)) {
      if (!/^slave\d+$/.test(key)) continue;
      const fields = Object.fromEntries(value.split(',').map((pair) => pair.split('=') as [string, string]));
      if (fields.ip) replicaLag.set(fields.ip, Number(fields.lag_bytes ?? 0));
    }
    return {
      role,
      offset: Number(role === 'slave' ? info.slave_repl_offset : info.master_repl_offset) || 0,
      linkUp: info.master_link_status === 'up',
      replicaLag,
    };
  }

  /** Runs commands as the control user; throws on any error reply. */
  async run(node: Node, commands: string[][], timeoutMs = 5_000): Promise<string[]> {
    await requireHostRoute(node.private_ip, this.ctx.config.bridge);
    const replies = await sendCommands(node.private_ip, this.port, [['AUTH', CONTROL_USER, await this.password()], ...commands], timeoutMs, await this.secure());
    const failed = replies.findIndex((reply) => reply.startsWith('-'));
    if (failed === 0) throw new Error(`${node.name}: AUTH as ${CONTROL_USER} refused: ${replies[0]}`);
    if (failed > 0) throw new Error(`${node.name}: ${commands[failed - 1]![0]} answered ${replies[failed]}`);
    return replies.slice(1);
  }

  /** The replica becomes a primary (REPLICAOF NO ONE) that takes writes. */
  promote(node: Node): Promise<string[]> {
    return this.run(node, [['REPLICAOF', 'NO', 'ONE'], ['CONFIG', 'SET', 'read-only', 'no']]);
  }

  /** The node streams from `primary` from now on. */
  follow(node: Node, primary: Node): Promise<string[]> {
    return this.run(node, [['REPLICAOF', primary.private_ip, String(this.port)], ['CONFIG', 'SET', 'read-only', 'no']]);
  }

  /** A fence that keeps the node running: it refuses every write (-READONLY). */
  refuseWrites(node: Node): Promise<string[]> {
    return this.run(node, [['CONFIG', 'SET', 'read-only', 'yes']]);
  }

  setMode(node: Node, mode: 'sync' | 'async'): Promise<string[]> {
    return this.run(node, [['CONFIG', 'SET', 'replication-mode', mode]]);
  }
}
