// The engines of the encryption-overhead suite: basalt-server, the binary the worker deploys to
// instances, started for one scenario in the run's server slot (peer-server.ts: a network
// namespace on the bridge and a cgroup of the type's VM size, or loopback beside a process
// VM), with the instance's fsync
// policy and cache bound, and with TLS, encryption at rest, both or neither. Everything it is
// given is in files of its own 0700 directory (config 0600, at-rest key 0600, TLS key 0600);
// its argv names the config file only, so neither the password nor a key reaches a command
// line, the environment or a log. The TLS certificate comes from a CA made for the run with
// the worker's certificate code (instance-ca.ts); it lives in the run's memory only.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { encryptionVariantLabel, type EncryptionVariant } from '@basalt/api-client/rules';
import type { InstanceTypeRow, RegionRow } from '@basalt/db';
import type { JobContext } from '../context.js';
import { ENGINE_PORT, ENGINE_TLS_PORT, engineMaxmemoryMb, vmSizeOf } from '../engine-settings.js';
import { StepError } from '../errors.js';
import { certificateNames, issueCertificate, type CertificateAndKey } from '../instance-ca.js';
import { infoAs, type TlsTarget } from '../resp.js';
import { startInServerSlot, stopPeer, type SlotPlace } from './peer-server.js';
import type { ClientTarget } from './scenario-command.js';

export interface EncryptionEngine {
  variant: EncryptionVariant;
  target: ClientTarget;
  /** basalt_version from its INFO server. */
  version: string;
  /** What its INFO security said about the two encryptions (stored with each row). */
  security: { tls_port: string; plaintext_port: string; encryption_at_rest: string };
  /** Its data directory (the log segments the suite's data went to). */
  dataDir: string;
  placement: string;
}

const USER = 'default';
/** TOML basic strings: a JSON string is one (as the engine role writes them). */
const toml = (value: string) => JSON.stringify(value);

/** The engine's config file: what the role's basalt.toml.j2 writes for an instance, plus the variant's encryptions. */
export function engineConfig(options: {
  address: string;
  dir: string;
  fsync: string;
  maxmemoryMb: number;
  threads: number;
  password: string;
  tls?: { certFile: string; keyFile: string };
  keyFile?: string;
}): string {
  const lines = [
    `bind = ${toml(options.address)}`,
    `port = ${ENGINE_PORT}`,
    `dir = ${toml(path.join(options.dir, 'data'))}`,
    `fsync = ${toml(options.fsync)}`,
    `maxmemory = "${Math.floor(options.maxmemoryMb)}mb"`,
    `threads = ${Math.max(1, Math.floor(options.threads))}`,
    '',
    '[security]',
    `requirepass = ${toml(options.password)}`,
  ];
  if (options.tls) {
    lines.push(`tls-port = ${ENGINE_TLS_PORT}`, `tls-cert-file = ${toml(options.tls.certFile)}`, `tls-key-file = ${toml(options.tls.keyFile)}`, 'tls-auth-clients = "no"', 'plaintext = "no"');
  }
  if (options.keyFile) lines.push(`encryption-key-file = ${toml(options.keyFile)}`);
  return `${lines.join('\n')}\n`;
}

/** The engine's INFO security must say what the variant asked for; anything else would measure something else. */
export function checkSecurity(variant: EncryptionVariant, info: Record<string, string>): EncryptionEngine['security'] {
  const security = { tls_port: info.tls_port ?? '?', plaintext_port: info.plaintext_port ?? '?', encryption_at_rest: info.encryption_at_rest ?? '?' };
  const tlsOk = variant.tls ? security.tls_port === String(ENGINE_TLS_PORT) && security.plaintext_port === '0' : security.tls_port === '0' && security.plaintext_port === String(ENGINE_PORT);
  const atRestOk = security.encryption_at_rest === (variant.at_rest ? 'on' : 'off');
  if (!tlsOk || !atRestOk) {
    throw new StepError('run_scenarios', `the engine for ${encryptionVariantLabel(variant)} reports tls_port ${security.tls_port}, plaintext_port ${security.plaintext_port}, encryption_at_rest ${security.encryption_at_rest}`);
  }
  return security;
}

/** Starts a fresh engine for `variant` in the run's server slot (stopped with stopPeer). */
export async function startEncryptionEngine(
  ctx: JobContext,
  benchmarkId: string,
  region: Pick<RegionRow, 'id' | 'target' | 'addressPool'>,
  type: InstanceTypeRow,
  variant: EncryptionVariant,
  fsync: string,
  place: SlotPlace,
  runDir: string,
  /** The run's CA (made once per run with makeCa), for the TLS variants. */
  ca: CertificateAndKey,
): Promise<EncryptionEngine> {
  const password = randomBytes(18).toString('base64url');
  let caPem: string | undefined;
  const port = variant.tls ? ENGINE_TLS_PORT : ENGINE_PORT;
  const started = await startInServerSlot(ctx, benchmarkId, region, type, place, runDir, 'engine', port, async (address, dir) => {
    let tls: { certFile: string; keyFile: string } | undefined;
    if (variant.tls) {
      const issued = await issueCertificate(ca, 'basalt-bench-engine', certificateNames([address]));
      tls = { certFile: path.join(dir, 'server.crt'), keyFile: path.join(dir, 'server.key') };
      fs.writeFileSync(tls.certFile, issued.certificate);
      fs.writeFileSync(tls.keyFile, issued.key, { mode: 0o600 });
      caPem = ca.certificate;
      fs.writeFileSync(path.join(dir, 'ca.pem'), ca.certificate, { mode: 0o600 });
    }
    let keyFile: string | undefined;
    if (variant.at_rest) {
      keyFile = path.join(dir, 'at-rest.key');
      fs.writeFileSync(keyFile, randomBytes(32), { mode: 0o600 });
    }
    const config = path.join(dir, 'basalt.toml');
    const size = vmSizeOf(type);
    fs.writeFileSync(config, engineConfig({ address, dir, fsync, maxmemoryMb: engineMaxmemoryMb(size), threads: size.cpus, password, tls, keyFile }), { mode: 0o600 });
    return [ctx.config.engineBinary, '--config', config];
  });
  try {
    const secure: TlsTarget | undefined = caPem ? { caPem } : undefined;
    const server = await infoAs(started.address, port, USER, password, 'server', secure);
    const security = checkSecurity(variant, await infoAs(started.address, port, USER, password, 'security', secure));
    const target: ClientTarget = { host: started.address, port, username: USER, password, caFile: caPem ? path.join(started.dir, 'ca.pem') : undefined };
    return {
      variant,
      target,
      version: server.basalt_version ?? server.redis_version ?? 'unknown',
      security,
      dataDir: path.join(started.dir, 'data'),
      placement: `basalt-server (${ctx.config.engineBinary}, the build the worker deploys) ${started.where}, fsync ${fsync}, maxmemory ${engineMaxmemoryMb(started.size)} MB`,
    };
  } catch (error) {
    await stopPeer(ctx, benchmarkId).catch(() => {});
    throw error;
  }
}

/**
 * Whether any file of the engine's data directory holds `needle` in the clear (the suite's key
 * prefix: with encryption at rest every key is sealed before it reaches the log). Read in
 * chunks: a 4 KB scenario's log is a few hundred MB. The engine runs while this reads, and its
 * compaction removes a segment once the segment's live records are in a newer one (a 4 KB
 * scenario compacts within seconds): when a listed file has gone, the directory is listed again
 * and the files not read yet are read.
 */
export function dataHoldsInClear(dataDir: string, needle: string): boolean {
  const bytes = Buffer.from(needle);
  const chunk = Buffer.alloc(8 * 1024 * 1024);
  const list = () => (fs.existsSync(dataDir) ? fs.readdirSync(dataDir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name)) : []);
  /** true or false; undefined when the file is gone. */
  const holds = (file: string): boolean | undefined => {
    let fd: number;
    try {
      fd = fs.openSync(file, 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    try {
      // Each read starts needle.length - 1 bytes back, so a match across two chunks is found.
      for (let position = 0; ; position += chunk.length - (bytes.length - 1)) {
        const read = fs.readSync(fd, chunk, 0, chunk.length, position);
        if (chunk.subarray(0, read).includes(bytes)) return true;
        if (read < chunk.length) return false;
      }
    } finally {
      fs.closeSync(fd);
    }
  };
  const read = new Set<string>();
  for (let pass = 0; pass < 10; pass++) {
    let gone = false;
    for (const file of list().filter((f) => !read.has(f))) {
      read.add(file);
      const found = holds(file);
      if (found) return true;
      if (found === undefined) gone = true;
    }
    if (!gone) return false;
  }
  return false;
}
