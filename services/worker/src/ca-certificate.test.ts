import { describe, expect, it } from 'vitest';
import type { AnsibleEvent } from './ansible/ansible.js';
import { caCertificateOf, endpointsOf } from './engine-deploy.js';
import type { Node } from './stack.js';

const pem = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----';
const ok = (host: string, task: string, stdout: string): AnsibleEvent => ({ event: 'runner_on_ok', time: 0, host, task, result: { stdout } });
const run = (events: AnsibleEvent[]) => ({ exitCode: 0, events, stats: {}, changed: 0 });

describe('the instance CA certificate from the deploy events', () => {
  it('is the output of the role task, one copy per distinct CA', () => {
    const events = [ok('n1', 'engine : Keep the engine as the control plane wants it', pem), ok('n2', 'engine : Keep the engine as the control plane wants it', pem)];
    expect(caCertificateOf(run(events))).toBe(`${pem}\n`);
  });

  it('ignores other tasks and output that is no certificate', () => {
    expect(caCertificateOf(run([ok('n1', 'engine : Something else', pem)]))).toBeUndefined();
    expect(caCertificateOf(run([ok('n1', 'engine : Keep the engine as the control plane wants it', 'cat: no such file')]))).toBeUndefined();
  });

  it('makes TLS endpoints on port 6380 that carry it', () => {
    const node = { name: 'n1', private_ip: '10.0.0.5', public_ip: '10.0.0.5' } as Node;
    expect(endpointsOf([node], pem)).toEqual([{ role: 'primary', type: 'private', host: '10.0.0.5', port: 6380, tls: true, node: 'n1', ca_certificate: pem }]);
    expect(endpointsOf([node])).toEqual([{ role: 'primary', type: 'private', host: '10.0.0.5', port: 6379, tls: false, node: 'n1' }]);
  });

  it('gives a standard instance its floating primary and read-only endpoints, on the nodes holding them', () => {
    const nodes = [
      { name: 'n0', private_ip: '10.0.0.5', public_ip: '10.0.0.5', role: 'replica', status: 'running' },
      { name: 'n1', private_ip: '10.0.0.6', public_ip: '10.0.0.6', role: 'primary', status: 'running' },
    ] as Node[];
    expect(endpointsOf(nodes, undefined, { primary: '10.0.0.9', readonly: '10.0.0.10' })).toEqual([
      { role: 'primary', type: 'private', host: '10.0.0.9', port: 6379, tls: false, node: 'n1' },
      { role: 'readonly', type: 'private', host: '10.0.0.10', port: 6379, tls: false, node: 'n0' },
    ]);
  });
});
