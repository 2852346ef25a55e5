import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { addressAnswers } from './address-probe.js';

describe('address probe', () => {
  it('sees a listener on loopback as taken, a refusal there as free', async () => {
    const server = net.createServer().listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const port = (server.address() as net.AddressInfo).port;
    expect(await addressAnswers('127.0.0.1', port)).toBe(true);
    server.close();
    await new Promise((resolve) => server.once('close', resolve));
    expect(await addressAnswers('127.0.0.1', port)).toBe(false);
  });

});
