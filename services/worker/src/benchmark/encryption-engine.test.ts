// The encryption-overhead suite's parts: its plan, the engine's config file for each variant
// (the real basalt-server started from it on loopback: INFO security says what was asked,
// the TLS engine refuses plaintext, the at-rest engine's data files hold no key in the clear
// while the plain one's do), the real basalt-bench over TLS against it, and the overhead table
// computed from stored rows.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ENCRYPTION_VARIANTS, encryptionOverhead, type EncryptionVariant } from '@basalt/api-client/rules';
import type { InstanceTypeRow } from '@basalt/db';
import { certificateNames, issueCertificate, makeCa } from '../instance-ca.js';
import { infoAs, sendCommands } from '../resp.js';
import { runBench } from './bench-process.js';
import { checkSecurity, dataHoldsInClear, engineConfig } from './encryption-engine.js';
import { clientArgs, displayCommand, writeAuthFile } from './scenario-command.js';
import { planScenarios, peerOf } from './suites.js';

const ENGINE = process.env.BASALT_ENGINE_BIN ?? path.resolve(import.meta.dirname, '../../../../engine/target/release/basalt-server');
const BENCH = process.env.BASALT_BENCH_BIN ?? path.resolve(import.meta.dirname, '../../../../engine/target/release/basalt-bench');
const small = { vcpu: 1, memoryGib: 2 } as InstanceTypeRow;
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'enc-engine-'));
const children: ChildProcess[] = [];

afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
  fs.rmSync(scratch, { recursive: true, force: true });
});

describe('encryption-overhead plan', () => {
  it('mixed 1:1 ping-pong, 128 B and 4 KB, the four variants each, the list in three rounds; no peer', () => {
    const plan = planScenarios('encryption-overhead', small, {});
    expect(plan).toHaveLength(8);
    expect(plan.map((s) => [s.name, s.workload, s.valueSize, s.pipeline, s.connections, s.rounds])).toEqual([
      ['mixed 1:1 128 B, ping-pong: no encryption', 'mixed-1:1', 128, 1, 8, 3],
      ['mixed 1:1 128 B, ping-pong: TLS', 'mixed-1:1', 128, 1, 8, 3],
      ['mixed 1:1 128 B, ping-pong: encryption at rest', 'mixed-1:1', 128, 1, 8, 3],
      ['mixed 1:1 128 B, ping-pong: TLS and encryption at rest', 'mixed-1:1', 128, 1, 8, 3],
      ['mixed 1:1 4 KB, ping-pong: no encryption', 'mixed-1:1', 4096, 1, 8, 3],
      ['mixed 1:1 4 KB, ping-pong: TLS', 'mixed-1:1', 4096, 1, 8, 3],
      ['mixed 1:1 4 KB, ping-pong: encryption at rest', 'mixed-1:1', 4096, 1, 8, 3],
      ['mixed 1:1 4 KB, ping-pong: TLS and encryption at rest', 'mixed-1:1', 4096, 1, 8, 3],
    ]);
    expect(plan.map((s) => s.encryption)).toEqual([...ENCRYPTION_VARIANTS, ...ENCRYPTION_VARIANTS]);
    expect(plan[0]!.flags).toContain('--ratio=1:1');
    expect(plan[0]!.flags).toContain('--key-maximum=1000');
    expect(plan[0]!.flags).toContain('--requests=3750');
    expect(plan[0]!.scaling).toMatch(/^8 connections .* 30000 requests per run over 1000 keys, 3 rounds of the list \(both value sizes, the four variants each\), a variant's row its median round's; each run against a fresh, empty engine/);
    expect(peerOf('encryption-overhead')).toBeUndefined();
  });

  it('the config file: TLS only on its own port with plaintext off, the at-rest key by path; strings cannot end early', () => {
    const text = engineConfig({ address: '10.77.0.9', dir: '/run/x"y', fsync: 'always', maxmemoryMb: 1536.7, threads: 1, password: 'pw', tls: { certFile: '/c', keyFile: '/k' }, keyFile: '/run/at-rest.key' });
    expect(text).toContain('dir = "/run/x\\"y/data"');
    expect(text).toContain('maxmemory = "1536mb"');
    expect(text).toMatch(/tls-port = 6380\ntls-cert-file = "\/c"\ntls-key-file = "\/k"\ntls-auth-clients = "no"\nplaintext = "no"\nencryption-key-file = "\/run\/at-rest.key"\n$/);
    expect(engineConfig({ address: 'a', dir: '/d', fsync: 'no', maxmemoryMb: 1, threads: 0, password: 'p' })).not.toMatch(/tls|encryption/);
  });

  it('the engine must report the variant asked for', () => {
    expect(() => checkSecurity({ tls: true, at_rest: false }, { tls_port: '0', plaintext_port: '6379', encryption_at_rest: 'off' })).toThrow(/reports tls_port 0/);
    expect(() => checkSecurity({ tls: false, at_rest: true }, { tls_port: '0', plaintext_port: '6379', encryption_at_rest: 'off' })).toThrow(/encryption_at_rest off/);
    expect(checkSecurity({ tls: true, at_rest: true }, { tls_port: '6380', plaintext_port: '0', encryption_at_rest: 'on' })).toEqual({ tls_port: '6380', plaintext_port: '0', encryption_at_rest: 'on' });
  });
});

// Leased host-wide (scripts/lib/net.mjs): suites run beside the end-to-end files.
async function freePort(): Promise<number> {
  const url = pathToFileURL(path.resolve(import.meta.dirname, '../../../../scripts/lib/net.mjs')).href;
  return ((await import(url)) as { freePort(): Promise<number> }).freePort();
}

const refuses = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => (socket.destroy(), resolve(false)));
    socket.once('error', () => resolve(true));
  });

/** The real engine from engineConfig on loopback; ports rewritten to free ones (the suite's are fixed per namespace). */
async function startEngine(name: string, variant: EncryptionVariant) {
  const dir = path.join(scratch, name);
  fs.mkdirSync(dir, { mode: 0o700 });
  const password = randomBytes(12).toString('hex');
  let tls: { certFile: string; keyFile: string } | undefined;
  let caPem: string | undefined;
  if (variant.tls) {
    const ca = await makeCa('test');
    const issued = await issueCertificate(ca, 'engine', certificateNames([]));
    tls = { certFile: path.join(dir, 'server.crt'), keyFile: path.join(dir, 'server.key') };
    fs.writeFileSync(tls.certFile, issued.certificate);
    fs.writeFileSync(tls.keyFile, issued.key, { mode: 0o600 });
    caPem = ca.certificate;
    fs.writeFileSync(path.join(dir, 'ca.pem'), caPem);
  }
  const keyFile = variant.at_rest ? path.join(dir, 'at-rest.key') : undefined;
  if (keyFile) fs.writeFileSync(keyFile, randomBytes(32), { mode: 0o600 });
  const [plain, secure] = [await freePort(), await freePort()];
  const text = engineConfig({ address: '127.0.0.1', dir, fsync: 'everysec', maxmemoryMb: 64, threads: 1, password, tls, keyFile })
    .replace('port = 6379', `port = ${plain}`)
    .replace('tls-port = 6380', `tls-port = ${secure}`);
  fs.writeFileSync(path.join(dir, 'basalt.toml'), text, { mode: 0o600 });
  const child = spawn(ENGINE, ['--config', path.join(dir, 'basalt.toml')], { stdio: 'ignore' });
  children.push(child);
  const port = variant.tls ? secure : plain;
  const auth = { caPem };
  for (let i = 0; i < 100 && (await refuses(port)); i++) await new Promise((r) => setTimeout(r, 100));
  return { dir, password, port, plain, secure: caPem ? auth as { caPem: string } : undefined, child };
}

describe('the real engine for each variant', () => {
  it('INFO security matches, TLS refuses plaintext, at rest keeps keys out of the data files', { timeout: 60_000 }, async () => {
    for (const variant of ENCRYPTION_VARIANTS) {
      const name = `${variant.tls ? 'tls' : 'plain'}-${variant.at_rest ? 'sealed' : 'open'}`;
      const engine = await startEngine(name, variant);
      const info = await infoAs('127.0.0.1', engine.port, 'default', engine.password, 'security', engine.secure);
      // The config's fixed ports were rewritten for loopback: check the variant by what the engine says.
      expect(info.encryption_at_rest, name).toBe(variant.at_rest ? 'on' : 'off');
      expect(info.plaintext_port === '0', name).toBe(variant.tls);
      if (variant.tls) expect(await refuses(engine.plain), name).toBe(true);
      const replies = await sendCommands('127.0.0.1', engine.port, [['AUTH', 'default', engine.password], ['SET', 'memtier-42', 'a value'], ['GET', 'memtier-42']], 5_000, engine.secure);
      expect(replies, name).toEqual(['+OK', '+OK', '$7']);
      expect(dataHoldsInClear(path.join(engine.dir, 'data'), 'memtier-'), name).toBe(!variant.at_rest);
      engine.child.kill('SIGKILL');
    }
  });

  it('basalt-bench runs the suite scenario over TLS against the TLS engine', { timeout: 60_000 }, async () => {
    const engine = await startEngine('bench-tls', { tls: true, at_rest: true });
    const scenario = { ...planScenarios('encryption-overhead', small, {})[3]!, flags: ['--threads=1', '--clients=2', '--data-size=128', '--ratio=1:1', '--key-prefix=memtier-', '--key-maximum=100', '--requests=200'] };
    const target = { host: '127.0.0.1', port: engine.port, username: 'default', password: engine.password, caFile: path.join(engine.dir, 'ca.pem') };
    const jsonFile = path.join(engine.dir, 'result.json');
    const outcome = await runBench({ binary: BENCH, args: clientArgs(target, scenario, jsonFile, writeAuthFile(engine.dir, target)), jsonFile, timeoutMs: 30_000, signal: new AbortController().signal, onProgress: () => {} });
    expect(outcome.kind).toBe('finished');
    expect(displayCommand(target, scenario)).toContain('--tls --cacert=ca.pem');
    expect(dataHoldsInClear(path.join(engine.dir, 'data'), 'memtier-')).toBe(false);
  });
});

describe('dataHoldsInClear', () => {
  it('finds the needle across the boundary of two read chunks, and nothing in other bytes', () => {
    const dir = path.join(scratch, 'chunks');
    fs.mkdirSync(path.join(dir, 'sub'), { recursive: true });
    const file = Buffer.alloc(8 * 1024 * 1024 + 64, 0x2e);
    Buffer.from('memtier-').copy(file, 8 * 1024 * 1024 - 3);
    fs.writeFileSync(path.join(dir, 'sub', '00001.log'), file);
    expect(dataHoldsInClear(dir, 'memtier-')).toBe(true);
    expect(dataHoldsInClear(dir, 'memtier-x')).toBe(false);
    expect(dataHoldsInClear(path.join(scratch, 'absent'), 'memtier-')).toBe(false);
  });
});

describe('overhead table', () => {
  const row = (value_size: number, variant: EncryptionVariant, qps: number) => ({ name: `${value_size} ${JSON.stringify(variant)}`, server: 'basalt', value_size, qps, p99_latency_ms: 1, round_ops_per_sec: null, encryption: variant });
  it('the median of each variant against the unencrypted median of its value size, in the suite order', () => {
    const [off, tls, rest, both] = ENCRYPTION_VARIANTS as [EncryptionVariant, EncryptionVariant, EncryptionVariant, EncryptionVariant];
    const rows = encryptionOverhead([
      row(128, both, 60), row(128, off, 100), row(128, tls, 80), row(128, rest, 110),
      // A second round: one slow burst on the baseline, the median is unmoved by it.
      row(128, off, 40), row(128, off, 104), row(128, tls, 70),
      row(4096, tls, 50), { ...row(4096, off, 1), encryption: null },
    ]);
    expect(rows.map((r) => [r.valueSize, r.label, r.scenarios.length, r.qps, r.baselineQps, r.overheadPercent === null ? null : Math.round(r.overheadPercent)])).toEqual([
      [128, 'no encryption', 3, 100, 100, 0],
      [128, 'TLS', 2, 75, 100, 25],
      [128, 'encryption at rest', 1, 110, 100, -10],
      [128, 'TLS and encryption at rest', 1, 60, 100, 40],
      // No baseline stored for 4 KB (its row has no variant): no overhead is made up.
      [4096, 'TLS', 1, 50, null, null],
    ]);
    expect(rows[0]).toMatchObject({ minQps: 40, maxQps: 104 });
  });
});
