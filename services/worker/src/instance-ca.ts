// The CA of a `standard` TLS instance (issue 15): one per instance, made by the worker on its
// first deploy and kept sealed in PostgreSQL (instance_control_credentials), because no node
// lives as long as the instance (a failover rebuilds the old primary from scratch, and its
// certificate must chain to the CA its clients and replicas already trust). Each node gets a
// certificate signed by it for the node's own address and the instance's floating addresses
// (any node may come to hold the primary or the read-only endpoint), so a replica checks its
// primary and a client checks whichever node holds the endpoint, with one CA certificate.
// openssl (Debian's) does the cryptography in a 0700 directory of its own, removed at once; the
// CA key reaches it as a 0600 file, never through argv or the environment.
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { JobContext } from './context.js';
import { childEnv } from './child-env.js';
import { runCommand } from './process.js';
import { StepError } from './errors.js';

export interface CertificateAndKey {
  certificate: string;
  key: string;
}

/** A node's certificate for the engine role: the PEMs, and `spec`, which says what they were made for. */
export interface IssuedCertificate extends CertificateAndKey {
  /** SHA-256 of the CA certificate and the names: the role replaces a node's certificate only when it changes. */
  spec: string;
}

const DAYS_CA = 3650;
const DAYS_NODE = 825;

async function inScratchDir<T>(work: (dir: string) => Promise<T>): Promise<T> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'basalt-ca-'));
  try {
    await fs.chmod(dir, 0o700);
    return await work(dir);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

async function openssl(dir: string, args: string[]): Promise<void> {
  const result = await runCommand('openssl', args, { env: childEnv(), cwd: dir, timeoutMs: 20_000 });
  if (result.exitCode !== 0) throw new StepError('tls', `openssl ${args[0]} failed (exit ${result.exitCode}): ${result.stderr.trim().slice(-300)}`);
}

/** A fresh CA (P-256) named after the instance. */
export function makeCa(instanceId: string): Promise<CertificateAndKey> {
  return inScratchDir(async (dir) => {
    await openssl(dir, [
      'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-days', String(DAYS_CA),
      '-subj', `/CN=Basalt instance CA ${instanceId}`,
      '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign',
      '-keyout', 'ca.key', '-out', 'ca.crt',
    ]);
    return { certificate: await fs.readFile(path.join(dir, 'ca.crt'), 'utf8'), key: await fs.readFile(path.join(dir, 'ca.key'), 'utf8') };
  });
}

/** The instance's CA, made and sealed on first use (the same ever after). */
export function instanceCa(ctx: JobContext, instanceId: string): Promise<CertificateAndKey> {
  return ctx.repo.controlCredentials(ctx.config.masterKey).tlsCa(instanceId, () => makeCa(instanceId));
}

/** What a node's certificate is made for; equal specs need no new certificate. */
export function certificateSpec(ca: string, sans: string[]): string {
  return crypto.createHash('sha256').update(ca).update('\n').update([...sans].sort().join(',')).digest('hex');
}

/** A key and a certificate signed by `ca` for `sans` (`IP:…`, `DNS:…`), as server and as client (a replica shows it to its primary). */
export function issueCertificate(ca: CertificateAndKey, commonName: string, sans: string[]): Promise<IssuedCertificate> {
  if (!/^[A-Za-z0-9.:-]+$/.test(commonName) || sans.some((san) => !/^(IP|DNS):[A-Za-z0-9.:-]+$/.test(san))) {
    throw new StepError('tls', `not a certificate name: ${commonName} ${sans.join(',')}`);
  }
  return inScratchDir(async (dir) => {
    await fs.writeFile(path.join(dir, 'ca.key'), ca.key, { mode: 0o600 });
    await fs.writeFile(path.join(dir, 'ca.crt'), ca.certificate);
    await fs.writeFile(
      path.join(dir, 'node.ext'),
      ['basicConstraints=CA:FALSE', 'keyUsage=critical,digitalSignature', 'extendedKeyUsage=serverAuth,clientAuth', `subjectAltName=${sans.join(',')}`].join('\n') + '\n',
    );
    await openssl(dir, ['req', '-new', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-subj', `/CN=${commonName}`, '-keyout', 'node.key', '-out', 'node.csr']);
    await openssl(dir, ['x509', '-req', '-in', 'node.csr', '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-days', String(DAYS_NODE), '-extfile', 'node.ext', '-out', 'node.crt']);
    return {
      certificate: await fs.readFile(path.join(dir, 'node.crt'), 'utf8'),
      key: await fs.readFile(path.join(dir, 'node.key'), 'utf8'),
      spec: certificateSpec(ca.certificate, sans),
    };
  });
}

/** The names a node's certificate holds: its own addresses, loopback (the role's health check), and the floating ones. */
export function certificateNames(addresses: string[]): string[] {
  return [...[...new Set([...addresses, '127.0.0.1'])].map((ip) => `IP:${ip}`), 'DNS:localhost'];
}

/** What the engine role installs on a standard TLS instance's nodes: the CA certificate, and each node's key and certificate. */
export interface NodeCertificates {
  caCertificate: string;
  byNode: Record<string, IssuedCertificate>;
}

/** A certificate from the instance's CA for each node, naming its addresses and the instance's floating ones. */
export async function nodeCertificates(ctx: JobContext, instanceId: string, nodes: { name: string; private_ip: string; public_ip: string }[], floating: string[]): Promise<NodeCertificates> {
  const ca = await instanceCa(ctx, instanceId);
  const byNode: Record<string, IssuedCertificate> = {};
  for (const node of nodes) byNode[node.name] = await issueCertificate(ca, node.name, certificateNames([node.private_ip, node.public_ip, ...floating]));
  return { caCertificate: ca.certificate, byNode };
}
