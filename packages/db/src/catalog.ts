// The seeded catalog: region `local` and the instance types, sized as the published ESSD white
// paper's (/work/shared/reference/tair-essd-whitepaper.txt). That paper's throughput figures are
// Alibaba's, measured on Tair: they are never shown as Basalt's (a type's figures can only come
// from Basalt's own benchmark report of it, which no type has yet).
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

export const INSTANCE_TYPES = [
  { size: 'small', vcpu: 1, memoryGib: 2, diskGibMin: 10, diskGibMax: 200, maxConnections: 10_000 },
  { size: 'large', vcpu: 2, memoryGib: 8, diskGibMin: 20, diskGibMax: 500, maxConnections: 20_000 },
  { size: 'xlarge', vcpu: 4, memoryGib: 16, diskGibMin: 40, diskGibMax: 1000, maxConnections: 30_000 },
  { size: '2xlarge', vcpu: 8, memoryGib: 32, diskGibMin: 80, diskGibMax: 2000, maxConnections: 40_000 },
  { size: '4xlarge', vcpu: 16, memoryGib: 64, diskGibMin: 160, diskGibMax: 4000, maxConnections: 50_000 },
  { size: '8xlarge', vcpu: 32, memoryGib: 128, diskGibMin: 320, diskGibMax: 8000, maxConnections: 60_000 },
  { size: '13xlarge', vcpu: 52, memoryGib: 192, diskGibMin: 480, diskGibMax: 12000, maxConnections: 80_000 },
].map((t, i) => ({ id: `kv.standard.${t.size}`, ...t, regions: ['local'], sortOrder: i }));
