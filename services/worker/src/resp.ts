// The worker's own check that an instance is reachable: connect to the endpoint as the
// instance's user and send PING, exactly as a client would (RESP over TCP).
import net from 'node:net';
import tls from 'node:tls';

function command(...parts: string[]): Buffer {
  const chunks = [Buffer.from(`*${parts.length}\r\n`)];
  for (const part of parts) {
    const data = Buffer.from(part);
    chunks.push(Buffer.from(`$${data.length}\r\n`), data, Buffer.from('\r\n'));
  }
  return Buffer.concat(chunks);
}

/**
 * With `caPem` the connection is TLS and the server's certificate must chain to that CA
 * (the instance's own; the certificate names the node's addresses).
 */
export interface TlsTarget {
  caPem: string;
}

function connect(host: string, port: number, secure: TlsTarget | undefined): net.Socket {
  if (!secure) return net.connect({ host, port });
  return tls.connect({
    host,
    port,
    ca: secure.caPem,
    // An IP address is not a valid SNI name; the check below is against the IP SANs.
    servername: net.isIP(host) ? '' : host,
    checkServerIdentity: (_name, cert) => tls.checkServerIdentity(host, cert),
  });
}

/** Sends the commands in order and returns their first-line replies (simple and error replies). */
export function sendCommands(host: string, port: number, commands: string[][], timeoutMs = 5000, secure?: TlsTarget): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const socket = connect(host, port, secure);
    const replies: string[] = [];
    let buffer = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no reply from ${host}:${port} within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.on(secure ? 'secureConnect' : 'connect', () => socket.write(Buffer.concat(commands.map((c) => command(...c)))));
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      let end: number;
      while ((end = buffer.indexOf('\r\n')) >= 0) {
        replies.push(buffer.slice(0, end));
        buffer = buffer.slice(end + 2);
      }
      if (replies.length >= commands.length) {
        clearTimeout(timer);
        socket.end();
        resolve(replies.slice(0, commands.length));
      }
    });
    socket.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      if (replies.length < commands.length) reject(new Error(`${host}:${port} closed the connection`));
    });
  });
}

/** AUTH (when a password is given) then PING; resolves when the reply is PONG. */
export async function pingAs(host: string, port: number, user: string, password: string | undefined, secure?: TlsTarget): Promise<void> {
  const commands = password ? [['AUTH', user, password], ['PING']] : [['PING']];
  const replies = await sendCommands(host, port, commands, 5000, secure);
  const ping = replies[replies.length - 1];
  if (password && replies[0] !== '+OK') throw new Error(`AUTH as ${user} refused: ${replies[0]}`);
  if (ping !== '+PONG') throw new Error(`PING answered ${ping}`);
}

/** AUTH as `user`, then INFO `section`; resolves with its `field:value` lines. */
export function infoAs(host: string, port: number, user: string, password: string, section: string, secure?: TlsTarget, timeoutMs = 5000): Promise<Record<string, string>> {
  return new Promise((resolve, reject) => {
    const socket = connect(host, port, secure);
    let buffer = Buffer.alloc(0);
    const fail = (error: Error) => {
      clearTimeout(timer);
      socket.destroy();
      reject(error);
    };
    const timer = setTimeout(() => fail(new Error(`no INFO reply from ${host}:${port} within ${timeoutMs} ms`)), timeoutMs);
    socket.on(secure ? 'secureConnect' : 'connect', () => socket.write(Buffer.concat([command('AUTH', user, password), command('INFO', section)])));
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      const authEnd = buffer.indexOf('\r\n');
      if (authEnd < 0) return;
      const auth = buffer.subarray(0, authEnd).toString();
      if (auth !== '+OK') return fail(new Error(`AUTH as ${user} refused: ${auth}`));
      const headerEnd = buffer.indexOf('\r\n', authEnd + 2);
      if (headerEnd < 0) return;
      const header = buffer.subarray(authEnd + 2, headerEnd).toString();
      if (!header.startsWith('$')) return fail(new Error(`INFO answered ${header}`));
      const length = Number(header.slice(1));
      if (buffer.length < headerEnd + 2 + length) return;
      clearTimeout(timer);
      socket.end();
      const body = buffer.subarray(headerEnd + 2, headerEnd + 2 + length).toString();
      const fields: Record<string, string> = {};
      for (const line of body.split('\r\n')) {
        const colon = line.indexOf(':');
        if (colon > 0 && !line.startsWith('#')) fields[line.slice(0, colon)] = line.slice(colon + 1);
      }
      resolve(fields);
    });
    socket.on('error', fail);
  });
}
