// Leases: which live worker works on an operation or an instance. A lease is a session-level
// advisory lock, so it goes away with the worker that held it. Every lease of a process sits
// on one connection of its own (not the pool's): however many jobs wait for or hold leases,
// they need no pool connection for it, so leases can never starve the queries of the jobs.
import pg from 'pg';

/** Held until released (or until the process or its lease connection dies). */
export interface Lease {
  release(): Promise<void>;
}

export class LeaseConnection {
  private client: pg.Client | undefined;
  /** Queries on the one connection run one after the other. */
  private queue: Promise<unknown> = Promise.resolve();
  private lost: Error | undefined;
  /** Keys this process holds now. */
  private readonly held = new Set<string>();

  /** `onLost` is told once when the connection, and so every lease on it, is gone. */
  constructor(
    private readonly connectionString: string,
    private readonly onLost: (error: Error) => void = () => {},
  ) {}

  async open(): Promise<void> {
    const client = new pg.Client({ connectionString: this.connectionString, connectionTimeoutMillis: 10_000, keepAlive: true });
    client.on('error', (error) => this.lose(error));
    client.on('end', () => this.lose(new Error('the lease connection ended')));
    await client.connect();
    this.client = client;
  }

  /**
   * Takes the lease `key` if no one holds it: no other session, and no other job of this
   * process (PostgreSQL lets one session take the same advisory lock again, so the keys this
   * connection holds are kept here too). Undefined when it is held.
   */
  async tryLease(key: string): Promise<Lease | undefined> {
    if (this.held.has(key)) return undefined;
    this.held.add(key);
    let locked = false;
    try {
      const [row] = await this.query<{ locked: boolean }>('SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS locked', [key]);
      locked = row?.locked === true;
    } finally {
      if (!locked) this.held.delete(key);
    }
    if (!locked) return undefined;
    let released = false;
    return {
      release: async () => {
        if (released) return;
        released = true;
        // A lost connection already dropped the lock.
        if (!this.lost) await this.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [key]).catch(() => {});
        this.held.delete(key);
      },
    };
  }

  async close(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    this.lost ??= new Error('the lease connection is closed');
    await client?.end().catch(() => {});
  }

  private query<R extends pg.QueryResultRow>(text: string, values: unknown[]): Promise<R[]> {
    const next = this.queue.then(async () => {
      if (this.lost || !this.client) throw this.lost ?? new Error('the lease connection is not open');
      return (await this.client.query<R>(text, values)).rows;
    });
    this.queue = next.catch(() => {});
    return next;
  }

  private lose(error: Error): void {
    if (this.lost) return;
    this.lost = error;
    this.onLost(error);
  }
}

export const operationLeaseKey = (operationId: string) => `basalt-operation:${operationId}`;
export const instanceLeaseKey = (instanceId: string) => `basalt-instance:${instanceId}`;
