// Region `local`'s network as infra/terraform/modules/local/network.json defines it (the one
// source the catalog, the worker and the scripts read): bridge, pool, gateway (first host).
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './paths.mjs';

export function localNetwork() {
  const file = path.join(ROOT, 'infra', 'terraform', 'modules', 'local', 'network.json');
  const { bridge, address_pool: pool } = JSON.parse(fs.readFileSync(file, 'utf8'));
  const [base, bits] = pool.split('/');
  const octets = base.split('.').map(Number);
  const gateway = [...octets.slice(0, 3), octets[3] + 1].join('.');
  return { bridge, pool, gateway, prefixLength: Number(bits) };
}
