// The IP allowlist of an instance: CIDRs already validated and normalised by the API.
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../client.js';
import { allowlistEntries } from '../schema.js';
import type { AllowlistEntryRow } from '../provisioning.js';

export interface AllowlistEntryInput {
  cidr: string;
  description: string;
}

export class AllowlistRepository {
  constructor(private readonly db: Db) {}

  list(instanceId: string): Promise<AllowlistEntryRow[]> {
    return this.db.select().from(allowlistEntries).where(eq(allowlistEntries.instanceId, instanceId)).orderBy(asc(allowlistEntries.createdAt), asc(allowlistEntries.cidr));
  }

  /** Replaces the whole list. */
  async replace(instanceId: string, entries: AllowlistEntryInput[]): Promise<void> {
    await this.db.delete(allowlistEntries).where(eq(allowlistEntries.instanceId, instanceId));
    if (entries.length) await this.db.insert(allowlistEntries).values(entries.map((e) => ({ ...e, instanceId })));
  }

  /** Adds (or re-describes) entries and removes others by CIDR. */
  async patch(instanceId: string, add: AllowlistEntryInput[], remove: string[]): Promise<void> {
    if (remove.length) await this.db.delete(allowlistEntries).where(and(eq(allowlistEntries.instanceId, instanceId), inArray(allowlistEntries.cidr, remove)));
    for (const entry of add) {
      await this.db
        .insert(allowlistEntries)
        .values({ ...entry, instanceId })
        .onConflictDoUpdate({ target: [allowlistEntries.instanceId, allowlistEntries.cidr], set: { description: entry.description } });
    }
  }
}
