// The control plane's own engine user of an instance: its password, sealed with the master key,
// and the next one while a full deploy rotates it (see instanceControlCredentials in schema.ts).
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../client.js';
import { instanceControlCredentials } from '../schema.js';
import { decryptSecret, encryptSecret, generatePassword } from '../secrets.js';

/**
 * The control plane's user on every engine (the worker renders it into the users file; the API
 * logs in as it to read SLOWLOG). `:` is not allowed in a customer's username, so no customer
 * can take or shadow it.
 */
export const CONTROL_USER = 'basalt:control-plane';

export interface ControlPasswords {
  /** The password the engine already knows (or will, after the first deploy). */
  current: string;
  /** Being introduced by the deploy running now; promoted by `promote` once it succeeded. */
  next?: string;
}

export class ControlCredentialsRepository {
  constructor(
    private readonly db: Db,
    private readonly masterKey: Buffer,
  ) {}

  /**
   * The instance's control passwords; made on first use. With `rotateAfterSeconds`, a `next`
   * password is made when the current one is at least that old (0: always), unless one is
   * already pending (a deploy that failed left it: the engine may know it).
   */
  async prepare(instanceId: string, rotateAfterSeconds?: number): Promise<ControlPasswords> {
    await this.db
      .insert(instanceControlCredentials)
      .values({ instanceId, passwordEncrypted: encryptSecret(this.masterKey, generatePassword(32)) })
      .onConflictDoNothing();
    if (rotateAfterSeconds !== undefined) {
      await this.db
        .update(instanceControlCredentials)
        .set({ nextPasswordEncrypted: encryptSecret(this.masterKey, generatePassword(32)), updatedAt: sql`now()` })
        .where(
          sql`${instanceControlCredentials.instanceId} = ${instanceId} and ${instanceControlCredentials.nextPasswordEncrypted} is null
              and ${instanceControlCredentials.updatedAt} <= now() - make_interval(secs => ${rotateAfterSeconds})`,
        );
    }
    const [row] = await this.db.select().from(instanceControlCredentials).where(eq(instanceControlCredentials.instanceId, instanceId));
    if (!row) throw new Error(`instance ${instanceId} has no control credentials (deleted meanwhile?)`);
    return {
      current: decryptSecret(this.masterKey, row.passwordEncrypted),
      ...(row.nextPasswordEncrypted ? { next: decryptSecret(this.masterKey, row.nextPasswordEncrypted) } : {}),
    };
  }

  /** The passwords as they are, made by no one here (the API reads with them; only deploys make them). */
  async passwords(instanceId: string): Promise<ControlPasswords | undefined> {
    const [row] = await this.db.select().from(instanceControlCredentials).where(eq(instanceControlCredentials.instanceId, instanceId));
    if (!row) return undefined;
    return {
      current: decryptSecret(this.masterKey, row.passwordEncrypted),
      ...(row.nextPasswordEncrypted ? { next: decryptSecret(this.masterKey, row.nextPasswordEncrypted) } : {}),
    };
  }

  /** The deploy that introduced `next` succeeded: it becomes the only password. */
  async promote(instanceId: string, next: string): Promise<void> {
    await this.db
      .update(instanceControlCredentials)
      .set({ passwordEncrypted: encryptSecret(this.masterKey, next), nextPasswordEncrypted: null, updatedAt: sql`now()` })
      .where(eq(instanceControlCredentials.instanceId, instanceId));
  }

  /**
   * The password of the instance's replication user (replicas log in to their primary with
   * it); made and sealed on first use, the same ever after.
   */
  async replicationPassword(instanceId: string): Promise<string> {
    await this.prepare(instanceId);
    await this.db
      .update(instanceControlCredentials)
      .set({ replicationPasswordEncrypted: encryptSecret(this.masterKey, generatePassword(32)) })
      .where(sql`${instanceControlCredentials.instanceId} = ${instanceId} and ${instanceControlCredentials.replicationPasswordEncrypted} is null`);
    const [row] = await this.db.select().from(instanceControlCredentials).where(eq(instanceControlCredentials.instanceId, instanceId));
    if (!row?.replicationPasswordEncrypted) throw new Error(`instance ${instanceId} has no control credentials (deleted meanwhile?)`);
    return decryptSecret(this.masterKey, row.replicationPasswordEncrypted);
  }

  /**
   * The instance's TLS CA (certificate and key); `make` runs when there is none yet, and the
   * first one stored wins (two deploys racing keep one CA).
   */
  async tlsCa(instanceId: string, make: () => Promise<{ certificate: string; key: string }>): Promise<{ certificate: string; key: string }> {
    await this.prepare(instanceId);
    const read = async () => {
      const [row] = await this.db.select().from(instanceControlCredentials).where(eq(instanceControlCredentials.instanceId, instanceId));
      if (!row) throw new Error(`instance ${instanceId} has no control credentials (deleted meanwhile?)`);
      return row.tlsCaCertificate && row.tlsCaKeyEncrypted ? { certificate: row.tlsCaCertificate, key: decryptSecret(this.masterKey, row.tlsCaKeyEncrypted) } : undefined;
    };
    const stored = await read();
    if (stored) return stored;
    const made = await make();
    await this.db
      .update(instanceControlCredentials)
      .set({ tlsCaCertificate: made.certificate, tlsCaKeyEncrypted: encryptSecret(this.masterKey, made.key) })
      .where(sql`${instanceControlCredentials.instanceId} = ${instanceId} and ${instanceControlCredentials.tlsCaCertificate} is null`);
    const kept = await read();
    if (!kept) throw new Error(`instance ${instanceId}: its TLS CA could not be stored`);
    return kept;
  }
}
