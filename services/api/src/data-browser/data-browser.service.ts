// The console's data browser (issue 46): keys by pattern and type, a page of any value, edits,
// TTL, delete and a command line, each request on a connection of its own as the person's
// database user (data-browser.connector.ts), bounded in keys, elements, bytes and time
// (@basalt/api-client/rules' data-browser bounds). Reads need a project viewer, changes a
// member; the engine decides what the database user may do.
import { Injectable } from '@nestjs/common';
import type { InstanceRow } from '@basalt/db';
import {
  DATA_PAGE_MAX,
  DATA_REPLY_BYTES_MAX,
  DATA_REPLY_ITEMS_MAX,
  DATA_SCAN_CALLS_MAX,
  DATA_SCAN_COUNT_DEFAULT,
  DATA_SCAN_COUNT_MAX,
  DATA_KEY_TYPES,
  DATA_VALUE_BYTES_SHOWN,
  splitCommandLine,
  type DataKeyType,
} from '@basalt/api-client/rules';
import { Conflict, Invalid, NotFound } from '../common/errors.js';
import type { AuthContext } from '../common/request-context.js';
import { InstanceService } from '../instances/instance.service.js';
import { auditNameOf, refusedCommand } from './command-rules.js';
import { DataBrowserConnector, engineFailure, type UserSession } from './data-browser.connector.js';
import type {
  DataAccessDto,
  DataCommandDto,
  DataCommandResultDto,
  DataEditDto,
  DataKeyQuery,
  DataKeysDto,
  DataKeysQuery,
  DataTtlDto,
  DataValueDto,
} from './data-browser.dto.js';
import type { DatabaseCredentials } from './database-credentials.js';
import { editCommand } from './key-edits.js';
import { expectOk, integerOf, ttlOf } from './replies.js';
import { renderForCli } from './resp-render.js';
import type { ReplyLimits } from './resp-reader.js';
import { textOf } from './shown-text.js';
import { readValuePage } from './value-page.js';

/** Listings and values: each string cut to what is shown, pages of at most DATA_PAGE_MAX. */
const BROWSE_LIMITS: ReplyLimits = { bulkBytes: DATA_VALUE_BYTES_SHOWN, totalBytes: 8 * 1024 * 1024, items: 8 * DATA_PAGE_MAX + 64 };
/** The command line: the reply shown up to its byte and element budgets, the rest counted. */
const COMMAND_LIMITS: ReplyLimits = { bulkBytes: DATA_VALUE_BYTES_SHOWN, totalBytes: DATA_REPLY_BYTES_MAX, items: DATA_REPLY_ITEMS_MAX };

/** Audit notes are set on the request by the controller: the kind of change, never a value. */
export type AuditNote = (detail: string) => void;

@Injectable()
export class DataBrowserService {
  constructor(
    private readonly instances: InstanceService,
    private readonly connector: DataBrowserConnector,
  ) {}

  /** Runs `work` on a session as the user on a running instance whose browser is on; always closes it. */
  private async withSession<T>(
    auth: AuthContext,
    projectId: string,
    instanceId: string,
    role: 'viewer' | 'member',
    credentials: DatabaseCredentials,
    limits: ReplyLimits,
    work: (user: UserSession, instance: InstanceRow) => Promise<T>,
  ): Promise<T> {
    const instance = await this.instances.load(auth, projectId, instanceId, role);
    if (!instance.dataBrowserEnabled) {
      throw new Conflict('The data browser is turned off for this instance; turn it on with PATCH data_browser_enabled: true', 'data_browser_disabled');
    }
    if (instance.status !== 'running' && instance.status !== 'modifying') {
      throw new Conflict(`Instance is ${instance.status}: the data browser reads the running engine`, 'invalid_state');
    }
    const user = await this.connector.open(instance, credentials, limits);
    try {
      return await work(user, instance);
    } catch (error) {
      throw engineFailure(error);
    } finally {
      user.session.close();
    }
  }

  access(auth: AuthContext, projectId: string, instanceId: string, credentials: DatabaseCredentials): Promise<DataAccessDto> {
    return this.withSession(auth, projectId, instanceId, 'viewer', credentials, BROWSE_LIMITS, async ({ session, permission }) => {
      // DBSIZE is @keyspace @read: a user whose rules refuse it still browses, without a count.
      const size = await session.send(['DBSIZE']);
      return { username: credentials.username, permission, read_only: permission === 'read_only', key_count: integerOf(size) };
    });
  }

  keys(auth: AuthContext, projectId: string, instanceId: string, credentials: DatabaseCredentials, query: DataKeysQuery): Promise<DataKeysDto> {
    const count = query.count ?? DATA_SCAN_COUNT_DEFAULT;
    return this.withSession(auth, projectId, instanceId, 'viewer', credentials, BROWSE_LIMITS, async ({ session }) => {
      const filters = [...(query.match !== undefined ? ['MATCH', query.match] : []), ...(query.type ? ['TYPE', query.type] : [])];
      let cursor = query.cursor ?? '0';
      const keys: Buffer[] = [];
      // A sparse MATCH or TYPE returns few keys per SCAN: each call then looks at the most keys
      // it may, and a few calls fill a page, never more (a page holds < count + DATA_SCAN_COUNT_MAX).
      const scanCount = String(filters.length ? DATA_SCAN_COUNT_MAX : count);
      for (let calls = 0; calls < DATA_SCAN_CALLS_MAX; calls++) {
        const reply = expectOk(await session.send(['SCAN', cursor, 'COUNT', scanCount, ...filters]));
        const [next, found] = reply.kind === 'array' ? reply.items : [];
        cursor = next?.kind === 'bulk' ? next.bytes.toString('latin1') : '0';
        for (const key of found?.kind === 'array' ? found.items : []) if (key.kind === 'bulk') keys.push(key.bytes);
        if (cursor === '0' || keys.length >= count) break;
      }
      const details = keys.length ? await session.pipeline(keys.flatMap((key) => [['TYPE', key], ['PTTL', key]])) : [];
      const items = keys.map((key, i) => {
        const type = details[2 * i];
        return { key: textOf({ kind: 'bulk', bytes: key, length: key.length })!, type: type?.kind === 'simple' ? type.text : 'unknown', ttl_ms: ttlOf(details[2 * i + 1]) };
      });
      return { items, cursor };
    });
  }

  value(auth: AuthContext, projectId: string, instanceId: string, credentials: DatabaseCredentials, query: DataKeyQuery): Promise<DataValueDto> {
    return this.withSession(auth, projectId, instanceId, 'viewer', credentials, BROWSE_LIMITS, async ({ session }) => {
      const [type, ttl, memory] = await session.pipeline([['TYPE', query.key], ['PTTL', query.key], ['MEMORY', 'USAGE', query.key]]);
      const name = expectOk(type!).kind === 'simple' ? (type as { text: string }).text : 'none';
      if (name === 'none') throw new NotFound('Key');
      if (!(DATA_KEY_TYPES as readonly string[]).includes(name)) throw new Invalid(`The browser does not show values of type ${name}; use the command line`);
      const page = await readValuePage(session, query.key, name as DataKeyType, query.cursor, query.count);
      return {
        key: textOf({ kind: 'bulk', bytes: Buffer.from(query.key), length: Buffer.byteLength(query.key) })!,
        type: name as DataKeyType,
        ttl_ms: ttlOf(ttl),
        // MEMORY USAGE may be outside the user's rules: shown as unknown, not an error.
        memory_bytes: memory?.kind === 'integer' ? Number(memory.value) : null,
        ...page,
      };
    });
  }

  edit(auth: AuthContext, projectId: string, instanceId: string, credentials: DatabaseCredentials, body: DataEditDto, note: AuditNote): Promise<void> {
    const command = editCommand(body);
    note(body.op);
    return this.withSession(auth, projectId, instanceId, 'member', credentials, BROWSE_LIMITS, async ({ session }) => {
      const reply = expectOk(await session.send(command));
      // Removing what is not there changed nothing: say so rather than pretend.
      if ((body.op === 'hdel' || body.op === 'srem' || body.op === 'zrem' || body.op === 'lrem' || body.op === 'xdel') && integerOf(reply) === 0) {
        throw new NotFound(body.op === 'hdel' ? 'Field' : body.op === 'xdel' ? 'Entry' : 'Member');
      }
    });
  }

  ttl(auth: AuthContext, projectId: string, instanceId: string, credentials: DatabaseCredentials, body: DataTtlDto, note: AuditNote): Promise<void> {
    note(body.ttl_seconds === null || body.ttl_seconds === undefined ? 'persist' : 'expire');
    return this.withSession(auth, projectId, instanceId, 'member', credentials, BROWSE_LIMITS, async ({ session }) => {
      const [exists, changed] = await session.pipeline([
        ['EXISTS', body.key],
        body.ttl_seconds ? ['EXPIRE', body.key, String(body.ttl_seconds)] : ['PERSIST', body.key],
      ]);
      expectOk(changed!);
      if (integerOf(expectOk(exists!)) === 0) throw new NotFound('Key');
    });
  }

  delete(auth: AuthContext, projectId: string, instanceId: string, credentials: DatabaseCredentials, key: string): Promise<void> {
    return this.withSession(auth, projectId, instanceId, 'member', credentials, BROWSE_LIMITS, async ({ session }) => {
      if (integerOf(expectOk(await session.send(['DEL', key]))) === 0) throw new NotFound('Key');
    });
  }

  command(auth: AuthContext, projectId: string, instanceId: string, credentials: DatabaseCredentials, body: DataCommandDto, note: AuditNote): Promise<DataCommandResultDto> {
    const split = splitCommandLine(body.command);
    if ('error' in split) throw new Invalid(split.error, [{ field: 'command', problems: [split.error] }]);
    if (split.args.length === 0) throw new Invalid('Type a command', [{ field: 'command', problems: ['empty'] }]);
    const refused = refusedCommand(split.args);
    if (refused) throw new Invalid(refused, [{ field: 'command', problems: ['not run by the data browser'] }], 'command_not_supported');
    return this.withSession(auth, projectId, instanceId, 'member', credentials, COMMAND_LIMITS, async ({ session }) => {
      const reply = await session.send(split.args);
      // An unknown command's name could be anything typed (a value, a secret): not audited.
      note(reply.kind === 'error' && reply.text.startsWith('ERR unknown command') ? 'unknown command' : auditNameOf(split.args));
      return { output: renderForCli(reply), error: reply.kind === 'error' };
    });
  }
}
