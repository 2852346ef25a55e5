// Regions and instance types: global, read by everyone, seeded at start.
import { asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../client.js';
import { INSTANCE_TYPES, LOCAL_REGION } from '../catalog.js';
import { instanceTypes, regions } from '../schema.js';

export type RegionRow = typeof regions.$inferSelect;
export type InstanceTypeRow = typeof instanceTypes.$inferSelect;

export class CatalogRepository {
  constructor(private readonly db: Db) {}

  /** Inserts region `local` and the instance types, refreshing their figures; idempotent. */
  async seed(): Promise<void> {
    await this.db.insert(regions).values(LOCAL_REGION).onConflictDoNothing();
    for (const type of INSTANCE_TYPES) {
      const { id, ...rest } = type;
      await this.db
        .insert(instanceTypes)
        .values(type)
        .onConflictDoUpdate({ target: instanceTypes.id, set: rest });
    }
  }

  /**
   * A worker's verdict on a region it serves, at its start: null is available. Workers of one
   * region share its host network, so the last verdict holds for all of them.
   */
  /** What a worker found at its start: whether it can serve the region, and which architectures it places there. */
  async setRegionCapabilities(id: string, found: { unavailableReason: string | null; architectures: string[] }): Promise<void> {
    await this.db
      .update(regions)
      .set({ available: found.unavailableReason === null, unavailableReason: found.unavailableReason, architectures: found.architectures })
      .where(eq(regions.id, id));
  }

  listRegions(): Promise<RegionRow[]> {
    return this.db.select().from(regions).orderBy(asc(regions.id));
  }

  async getRegion(id: string): Promise<RegionRow | undefined> {
    const [row] = await this.db.select().from(regions).where(eq(regions.id, id));
    return row;
  }

  listInstanceTypes(region?: string): Promise<InstanceTypeRow[]> {
    const query = this.db.select().from(instanceTypes);
    const filtered = region ? query.where(sql`${region} = ANY(${instanceTypes.regions})`) : query;
    return filtered.orderBy(asc(instanceTypes.sortOrder));
  }

  async getInstanceType(id: string): Promise<InstanceTypeRow | undefined> {
    const [row] = await this.db.select().from(instanceTypes).where(eq(instanceTypes.id, id));
    return row;
  }
}
