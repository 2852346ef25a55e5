import net from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { addressAnswers } from './address-probe.js';
import { kernelRoute, requireHostRoute, UnroutedAddressError } from './host-route.js';

describe('address probe', () => {
  it('sees a listener on loopback as taken, a refusal there as free', async () => {
    const server = net.createServer().listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const port = (server.address() as net.AddressInfo).port;
    expect(await addressAnswers('127.0.0.1', port, { bridge: 'basalt0' })).toBe(true);
    server.close();
    await new Promise((resolve) => server.once('close', resolve));
    expect(await addressAnswers('127.0.0.1', port, { bridge: 'basalt0' })).toBe(false);
  });

  it('never connects to a pool address the kernel routes elsewhere than the bridge', async () => {
    const connect = vi.fn((options: net.NetConnectOpts) => net.connect(options));
    for (const device of ['eth0', undefined]) {
      const probe = addressAnswers('10.77.0.9', 22, { bridge: 'basalt0', routeOf: async () => device, connect });
      await expect(probe).rejects.toBeInstanceOf(UnroutedAddressError);
    }
    expect(connect).not.toHaveBeenCalled();
  });

  it('connects to a pool address routed through the bridge', async () => {
    // A loopback listener stands in for the VM; the route lookup says "via the bridge".
    const server = net.createServer().listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const port = (server.address() as net.AddressInfo).port;
    const connect = vi.fn((options: net.NetConnectOpts) => net.connect({ ...(options as net.TcpNetConnectOpts), host: '127.0.0.1' }));
    expect(await addressAnswers('10.77.0.9', port, { bridge: 'basalt0', routeOf: async () => 'basalt0', connect })).toBe(true);
    expect(connect).toHaveBeenCalledOnce();
    server.close();
  });

  it('asks the kernel: an address outside every route of this host is refused', async () => {
    // 192.0.2.0/24 is TEST-NET-1; whatever the host routes it through, it is not a bridge named so.
    await expect(requireHostRoute('192.0.2.77', 'basalt-no-such-bridge', kernelRoute)).rejects.toBeInstanceOf(UnroutedAddressError);
    await expect(requireHostRoute('127.0.0.1', 'basalt-no-such-bridge', kernelRoute)).resolves.toBeUndefined();
  });
});
