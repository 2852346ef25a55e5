// Runs one nft script as one transaction (`nft -f`): all of it applies or none does. Where nft
// is missing the worker says so in one line, as host-network.sh does for ip.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { outputTail, runCommand } from '../process.js';

export class NftMissingError extends Error {
  constructor() {
    super('the nft command (nftables) is not installed: the tenant firewall cannot be set up; install it as root: apt-get install -y nftables');
  }
}

export async function runNftScript(script: string, options: { check?: boolean } = {}): Promise<void> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'basalt-nft-'));
  const file = path.join(dir, 'rules.nft');
  try {
    await fs.writeFile(file, script, { mode: 0o600 });
    const result = await runCommand('nft', [...(options.check ? ['-c'] : []), '-f', file], { env: { PATH: process.env.PATH }, timeoutMs: 20_000 });
    if (result.exitCode === null && /ENOENT/.test(result.stderr)) throw new NftMissingError();
    if (result.exitCode !== 0) throw new Error(`nft -f failed (exit ${result.exitCode}): ${outputTail(result.stderr || result.stdout, 3)}`);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/** The names of the tables of one nft family on this host. */
export async function listTables(family: 'bridge' | 'inet'): Promise<string[]> {
  const result = await runCommand('nft', ['list', 'tables', family], { env: { PATH: process.env.PATH }, timeoutMs: 10_000 });
  if (result.exitCode === null && /ENOENT/.test(result.stderr)) throw new NftMissingError();
  if (result.exitCode !== 0) throw new Error(`nft list tables ${family} failed: ${outputTail(result.stderr, 2)}`);
  return result.stdout.split('\n').flatMap((line) => {
    const match = /^table \S+ (\S+)$/.exec(line.trim());
    return match ? [match[1]!] : [];
  });
}

/** The `nodes` set of every Basalt table of one family: which addresses each table walls in. */
export async function listNodeSets(family: 'bridge' | 'inet'): Promise<{ table: string; addresses: string[] }[]> {
  const result = await runCommand('nft', ['-j', 'list', 'sets', family], { env: { PATH: process.env.PATH }, timeoutMs: 10_000 });
  if (result.exitCode === null && /ENOENT/.test(result.stderr)) throw new NftMissingError();
  if (result.exitCode !== 0) throw new Error(`nft -j list sets ${family} failed: ${outputTail(result.stderr, 2)}`);
  const parsed = JSON.parse(result.stdout) as { nftables?: { set?: { name?: string; table?: string; elem?: unknown[] } }[] };
  return (parsed.nftables ?? []).flatMap(({ set }) =>
    set?.name === 'nodes' && typeof set.table === 'string' && set.table.startsWith('basalt_')
      ? [{ table: set.table, addresses: (set.elem ?? []).filter((e): e is string => typeof e === 'string') }]
      : [],
  );
}
