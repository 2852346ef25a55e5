// Opens a data-browser request's connection to the instance as the person's database user.
//
// The API connects from the control plane's address, which the instance's network admits
// (openings.ts: control-plane-engine) but the engine's allowlist may leave out: from there the
// engine lets in only a first `AUTH basalt:control-plane <password>` (outside_allowlist.rs). So
// the connection logs in as the control plane's user, waits for that OK, then `AUTH <user>
// <password>` as the person's user and waits for that OK before any other command: a refused
// AUTH closes the connection at once, so nothing ever runs as the control plane's user but the
// AUTH itself, and from the second reply on the session is the customer's user's, bounded by
// its own rules. Nothing is kept between requests: any API process can serve the next one.
import { Inject, Injectable } from '@nestjs/common';
import { ControlCredentialsRepository, CONTROL_USER, type Database, type InstanceEndpoint, type InstanceRow, InstanceUsersRepository } from '@basalt/db';
import { DATA_TIMEOUT_MS } from '@basalt/api-client/rules';
import { ApiConfig } from '../config.js';
import { DATABASE } from '../database/database.module.js';
import { DomainError, ServiceUnavailable } from '../common/errors.js';
import type { EngineTarget } from '../monitoring/engine-connection.js';
import type { DatabaseCredentials } from './database-credentials.js';
import { EngineSession, EngineTimeout, EngineUnreachable } from './engine-session.js';
import type { Reply, ReplyLimits } from './resp-reader.js';

export class DatabaseAuthFailed extends DomainError {
  constructor(username: string) {
    super(403, 'database_auth_failed', `The instance refused the password of database user ${username}: check the user and password and try again`);
  }
}

export class EngineTimedOut extends DomainError {
  constructor(message: string) {
    super(504, 'engine_timeout', message);
  }
}

/** Engine failures as the API's errors: a timeout is 504, anything else at the socket 503. */
export function engineFailure(error: unknown): unknown {
  if (error instanceof EngineTimeout) return new EngineTimedOut(`The instance did not answer within ${DATA_TIMEOUT_MS / 1000} s`);
  if (error instanceof EngineUnreachable) return new ServiceUnavailable(`The instance cannot be reached: ${error.message}`);
  return error;
}

const isOk = (reply: Reply) => reply.kind === 'simple' && reply.text === 'OK';

export interface UserSession {
  session: EngineSession;
  permission: 'read_only' | 'read_write' | 'admin';
}

@Injectable()
export class DataBrowserConnector {
  private readonly control: ControlCredentialsRepository;

  constructor(
    @Inject(DATABASE) database: Database,
    private readonly users: InstanceUsersRepository,
    private readonly config: ApiConfig,
  ) {
    this.control = new ControlCredentialsRepository(database.db, config.masterKey);
  }

  /** The primary's private endpoint: the control plane's side of the network, where writes go. */
  private target(instance: InstanceRow): EngineTarget {
    const endpoints = (Array.isArray(instance.endpoints) ? instance.endpoints : []) as InstanceEndpoint[];
    const endpoint = endpoints.find((e) => e.role === 'primary' && e.type === 'private') ?? endpoints.find((e) => e.role === 'primary');
    if (!endpoint) throw new ServiceUnavailable('The instance has no endpoint yet');
    return { host: endpoint.host, port: endpoint.port, ...(endpoint.tls && endpoint.ca_certificate ? { caPem: endpoint.ca_certificate } : {}) };
  }

  /** A session as the user (its rules as the control plane keeps them), or 403 for a wrong user or password. */
  async open(instance: InstanceRow, credentials: DatabaseCredentials, limits: ReplyLimits): Promise<UserSession> {
    // Only the instance's own users: never a `basalt:` service user, which no customer row names.
    const user = await this.users.get(instance.id, credentials.username);
    if (!user) throw new DatabaseAuthFailed(credentials.username);
    const passwords = await this.control.passwords(instance.id);
    if (!passwords) throw new ServiceUnavailable('The instance has no control-plane credentials yet');
    const target = this.target(instance);
    const deadline = Date.now() + DATA_TIMEOUT_MS;
    try {
      // A rotation may leave the engine with either control password; outside the allowlist a
      // refused first AUTH closes the connection, so each try is a connection of its own.
      for (const controlPassword of [passwords.current, passwords.next].filter((p): p is string => !!p)) {
        const session = await EngineSession.open(target, this.config.bridge, limits, Math.max(1, deadline - Date.now()));
        const admitted = await session.send(['AUTH', CONTROL_USER, controlPassword]).catch(() => undefined);
        if (!admitted || !isOk(admitted)) {
          session.close();
          continue;
        }
        const reply = await session.send(['AUTH', credentials.username, credentials.password]).catch((error: unknown) => {
          session.close();
          throw error;
        });
        if (!isOk(reply)) {
          session.close();
          throw new DatabaseAuthFailed(credentials.username);
        }
        return { session, permission: user.permission };
      }
    } catch (error) {
      throw engineFailure(error);
    }
    throw new ServiceUnavailable("The instance did not accept the control plane's credentials");
  }
}
