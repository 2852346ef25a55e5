// The seeded catalog: region `local` and the instance types of the published ESSD white paper
// (/work/shared/reference/tair-essd-whitepaper.txt). Reference QPS are that paper's YCSB figures.
import fs from 'node:fs';

/** Region `local`'s network, as infra/terraform/modules/local/network.json (the one source) defines it. */
export const LOCAL_NETWORK: { bridge: string; address_pool: string } = JSON.parse(
  fs.readFileSync(new URL('../../../infra/terraform/modules/local/network.json', import.meta.url), 'utf8'),
);

export const LOCAL_REGION = {
  id: 'local',
  name: 'Local (systemd-nspawn on this host)',
  target: 'local',
  addressPool: LOCAL_NETWORK.address_pool,
} as const;

export interface ReferenceQps {
  source: string;
  memory_larger_than_data: Record<'load' | 'uniform_read' | 'zipfian_read' | 'uniform_50_read_50_update', number>;
  data_larger_than_memory: Record<'load' | 'uniform_read' | 'zipfian_read' | 'uniform_50_read_50_update', number>;
}

const ref = (a: number[], b: number[]): ReferenceQps => ({
  source: 'ESSD white paper, YCSB (tair-essd-whitepaper)',
  memory_larger_than_data: { load: a[0]!, uniform_read: a[1]!, zipfian_read: a[2]!, uniform_50_read_50_update: a[3]! },
  data_larger_than_memory: { load: b[0]!, uniform_read: b[1]!, zipfian_read: b[2]!, uniform_50_read_50_update: b[3]! },
});

export const INSTANCE_TYPES = [
  { size: 'small', vcpu: 1, memoryGib: 2, diskGibMin: 10, diskGibMax: 200, maxConnections: 10_000, bandwidthMbps: 96, referenceQps: null },
  { size: 'large', vcpu: 2, memoryGib: 8, diskGibMin: 20, diskGibMax: 500, maxConnections: 20_000, bandwidthMbps: 192, referenceQps: null },
  { size: 'xlarge', vcpu: 4, memoryGib: 16, diskGibMin: 40, diskGibMax: 1000, maxConnections: 30_000, bandwidthMbps: 384, referenceQps: ref([36740, 103890, 106357, 46610], [25561, 25727, 47559, 19731]) },
  { size: '2xlarge', vcpu: 8, memoryGib: 32, diskGibMin: 80, diskGibMax: 2000, maxConnections: 40_000, bandwidthMbps: 768, referenceQps: ref([54670, 150796, 151110, 69137], [42287, 35794, 77759, 28656]) },
  { size: '4xlarge', vcpu: 16, memoryGib: 64, diskGibMin: 160, diskGibMax: 4000, maxConnections: 50_000, bandwidthMbps: 1536, referenceQps: ref([90703, 285833, 288750, 110316], [65923, 44753, 120337, 38470]) },
  { size: '8xlarge', vcpu: 32, memoryGib: 128, diskGibMin: 320, diskGibMax: 8000, maxConnections: 60_000, bandwidthMbps: 2048, referenceQps: ref([117581, 477099, 494550, 196245], [89231, 51175, 131317, 38930]) },
  { size: '13xlarge', vcpu: 52, memoryGib: 192, diskGibMin: 480, diskGibMax: 12000, maxConnections: 80_000, bandwidthMbps: 2048, referenceQps: ref([126366, 673183, 691383, 197803], [92163, 51267, 138522, 39584]) },
].map((t, i) => ({ id: `kv.standard.${t.size}`, ...t, regions: ['local'], sortOrder: i }));
