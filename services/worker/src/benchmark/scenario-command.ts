// The whole argv of one scenario's client: where it connects (the instance's endpoint), who
// it logs in as, the scenario's load-shaping flags, and where it writes its report; and the
// same command line as people read it, with the password left out. The password reaches the
// client in a file only the worker can read (--authenticate-file), never on its command line,
// which every user of the host sees in the process list.
import fs from 'node:fs';
import path from 'node:path';
import { StepError } from '../errors.js';
import type { Scenario } from './suites.js';

export interface ClientTarget {
  host: string;
  port: number;
  /** The engine's memcached port (the canonical suite); undefined where it is off (TLS). */
  memcachedPort?: number;
  username: string;
  /** Undefined: the server takes no login (the memcached peer). */
  password: string | undefined;
  /** With TLS: the instance's CA certificate, written to this file. */
  caFile?: string;
}

/** Seconds without any reply after which basalt-bench gives up (its own --timeout). */
const NO_REPLY_TIMEOUT_S = 10;
const PASSWORD_SHOWN_AS = '<password>';

/** basalt-bench's mode words before its flags. */
const MODE_WORDS: Record<Scenario['mode'], string[]> = {
  memtier: [],
  'ycsb-load': ['ycsb', 'load'],
  'ycsb-run': ['ycsb', 'run'],
  canonical: ['canonical'],
};

function argvOf(target: ClientTarget, scenario: Scenario, jsonFile: string, auth: string): string[] {
  const memcached = scenario.mode === 'canonical';
  if (memcached && target.memcachedPort === undefined) throw new StepError('prepare', 'the canonical suite needs the memcached port, which is off on an instance with TLS');
  return [
    ...MODE_WORDS[scenario.mode],
    `--server=${target.host}`,
    `--port=${memcached ? target.memcachedPort : target.port}`,
    ...(target.password === undefined ? [] : [auth]),
    ...(target.caFile && !memcached ? ['--tls', `--cacert=${target.caFile}`] : []),
    ...scenario.flags,
    '--print-percentiles=50,99,99.9',
    '--hide-histogram',
    `--timeout=${NO_REPLY_TIMEOUT_S}`,
    `--json-out-file=${jsonFile}`,
  ];
}

/** Writes the client's credentials (mode 0600) into the run's directory; returns the file. */
export function writeAuthFile(runDir: string, target: ClientTarget, name = 'authenticate'): string {
  const file = path.join(runDir, name);
  fs.writeFileSync(file, `${target.username}:${target.password}\n`, { mode: 0o600 });
  return file;
}

/** What the job runs (argv, never a shell line); `authFile` from writeAuthFile. */
export function clientArgs(target: ClientTarget, scenario: Scenario, jsonFile: string, authFile: string): string[] {
  return argvOf(target, scenario, jsonFile, `--authenticate-file=${authFile}`);
}

/** A display form of an argument: quoted when a shell would split or expand it. */
function shellWord(arg: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** The command line stored with the scenario: exact, except the password and the report file. */
export function displayCommand(target: ClientTarget, scenario: Scenario): string {
  const shown = { ...target, caFile: target.caFile ? 'ca.pem' : undefined };
  return ['basalt-bench', ...argvOf(shown, scenario, 'result.json', `--authenticate=${target.username}:${PASSWORD_SHOWN_AS}`)].map(shellWord).join(' ');
}
