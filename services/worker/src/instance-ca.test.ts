// The CA of a standard TLS instance and its node certificates, made with the real openssl and
// checked with Node's own X.509 parser: signed by the CA, for exactly the names asked for, and a
// spec that changes only with the CA or the names.
import { X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { certificateNames, certificateSpec, issueCertificate, makeCa } from './instance-ca.js';

describe('instance CA', () => {
  it('signs node certificates for their own and the floating addresses', async () => {
    const ca = await makeCa('3f2c6a1e-0000-4000-8000-000000000001');
    const caCert = new X509Certificate(ca.certificate);
    expect(caCert.ca).toBe(true);
    expect(ca.key).toMatch(/BEGIN PRIVATE KEY/);
    const names = certificateNames(['10.77.0.5', '10.77.0.5', '10.77.0.9', '10.77.0.10']);
    expect(names).toEqual(['IP:10.77.0.5', 'IP:10.77.0.9', 'IP:10.77.0.10', 'IP:127.0.0.1', 'DNS:localhost']);
    const issued = await issueCertificate(ca, 'node-0', names);
    const node = new X509Certificate(issued.certificate);
    expect(node.verify(caCert.publicKey)).toBe(true);
    expect(node.checkIssued(caCert)).toBe(true);
    expect(node.ca).toBe(false);
    for (const ip of ['10.77.0.5', '10.77.0.9', '10.77.0.10', '127.0.0.1']) expect(node.checkIP(ip)).toBe(ip);
    expect(node.checkIP('10.77.0.6')).toBeUndefined();
    expect(node.keyUsage ?? []).not.toContain('keyCertSign');
    expect(issued.spec).toBe(certificateSpec(ca.certificate, [...names].reverse()));
    expect(issued.spec).not.toBe(certificateSpec(ca.certificate, names.slice(1)));
    // Another instance's CA does not vouch for it.
    const other = new X509Certificate((await makeCa('3f2c6a1e-0000-4000-8000-000000000002')).certificate);
    expect(node.verify(other.publicKey)).toBe(false);
  });

  it('refuses a name that is not an address or a host name', async () => {
    const ca = await makeCa('3f2c6a1e-0000-4000-8000-000000000003');
    expect(() => issueCertificate(ca, 'node-0', ['IP:10.77.0.5,DNS:evil'])).toThrow(/not a certificate name/);
  });
});
