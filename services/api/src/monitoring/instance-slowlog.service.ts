// An instance's slow log: SLOWLOG GET on each of its nodes' engines, asked as the control
// plane's own user (customers' users may be read-only or gone), newest first.
import { Inject, Injectable } from '@nestjs/common';
import { ControlCredentialsRepository, CONTROL_USER, type Database, type InstanceEndpoint } from '@basalt/db';
import { ApiConfig } from '../config.js';
import { DATABASE } from '../database/database.module.js';
import { Conflict, ServiceUnavailable } from '../common/errors.js';
import type { AuthContext } from '../common/request-context.js';
import { InstanceService } from '../instances/instance.service.js';
import { converse, RespError, type EngineTarget, type RespValue } from './engine-connection.js';
import type { InstanceSlowlogDto, SlowlogEntryDto } from './instance-metrics.dto.js';

/** Whether an AUTH reply let us in (a rotation may leave the engine with either password). */
const isOk = (reply: RespValue | undefined) => reply === 'OK';

/** One SLOWLOG GET entry (id, unix time, µs, arguments, client address, client name) as the DTO. */
export function entryOf(node: string, raw: RespValue): SlowlogEntryDto | undefined {
  if (!Array.isArray(raw) || raw.length < 4) return undefined;
  const [id, unix, usec, args, addr, name] = raw;
  if (typeof id !== 'number' || typeof unix !== 'number' || typeof usec !== 'number' || !Array.isArray(args)) return undefined;
  return {
    node,
    id,
    time: new Date(unix * 1000).toISOString(),
    duration_us: usec,
    command: args.map((a) => (typeof a === 'string' ? a : String(a))),
    client_address: typeof addr === 'string' ? addr : '',
    client_name: typeof name === 'string' ? name : '',
  };
}

@Injectable()
export class InstanceSlowlogService {
  private readonly credentials: ControlCredentialsRepository;

  constructor(
    @Inject(DATABASE) database: Database,
    private readonly instances: InstanceService,
    private readonly config: ApiConfig,
  ) {
    this.credentials = new ControlCredentialsRepository(database.db, config.masterKey);
  }

  async get(auth: AuthContext, projectId: string, instanceId: string, count = 50): Promise<InstanceSlowlogDto> {
    const instance = await this.instances.load(auth, projectId, instanceId);
    if (instance.status !== 'running' && instance.status !== 'modifying') throw new Conflict(`Instance is ${instance.status}: its slow log is read from the running engine`, 'invalid_state');
    const passwords = await this.credentials.passwords(instance.id);
    if (!passwords) throw new ServiceUnavailable('The instance has no control-plane credentials yet');
    // One endpoint per node (the private addresses: the control plane's side of the network).
    const endpoints = ((Array.isArray(instance.endpoints) ? instance.endpoints : []) as InstanceEndpoint[]).filter((e) => e.type === 'private');
    const byNode = new Map(endpoints.map((e) => [e.node, e]));
    const results = await Promise.all(
      [...byNode].map(async ([node, endpoint]) => {
        const target: EngineTarget = { host: endpoint.host, port: endpoint.port, ...(endpoint.tls && endpoint.ca_certificate ? { caPem: endpoint.ca_certificate } : {}) };
        return this.read(node, target, [passwords.current, passwords.next].filter((p): p is string => !!p), count);
      }),
    );
    const items = results.flat().sort((a, b) => b.time.localeCompare(a.time) || b.id - a.id);
    return { items };
  }

  private async read(node: string, target: EngineTarget, passwords: string[], count: number): Promise<SlowlogEntryDto[]> {
    for (const password of passwords) {
      let replies: RespValue[];
      try {
        replies = await converse(target, this.config.bridge, [['AUTH', CONTROL_USER, password], ['SLOWLOG', 'GET', String(count)]]);
      } catch (error) {
        throw new ServiceUnavailable(`The engine on ${node} did not answer: ${(error as Error).message}`);
      }
      if (!isOk(replies[0])) continue;
      const reply = replies[1];
      if (reply instanceof RespError) throw new ServiceUnavailable(`The engine on ${node} refused SLOWLOG GET: ${reply.message}`);
      return (Array.isArray(reply) ? reply : []).map((raw) => entryOf(node, raw)).filter((e): e is SlowlogEntryDto => e !== undefined);
    }
    throw new ServiceUnavailable(`The engine on ${node} did not accept the control plane's credentials`);
  }
}
