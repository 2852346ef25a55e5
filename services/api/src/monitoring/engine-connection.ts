// One short RESP conversation with an instance's engine as the control plane's own user: the
// API reads what only the engine knows (SLOWLOG GET). Only addresses routed through the
// project bridge or loopback; TLS verified against the instance's own CA.
import net from 'node:net';
import tls from 'node:tls';
import { requireHostRoute } from '@basalt/db';

export type RespValue = string | number | null | RespValue[] | RespError;

export class RespError {
  constructor(readonly message: string) {}
}

function encode(args: string[]): Buffer {
  const parts = [Buffer.from(`*${args.length}\r\n`)];
  for (const arg of args) {
    const data = Buffer.from(arg);
    parts.push(Buffer.from(`$${data.length}\r\n`), data, Buffer.from('\r\n'));
  }
  return Buffer.concat(parts);
}

/** One complete reply at `at`, or undefined when more bytes are needed (framing first, then values). */
export function parseReply(buf: Buffer, at = 0): { value: RespValue; next: number } | undefined {
  const eol = buf.indexOf('\r\n', at);
  if (eol < 0) return undefined;
  const type = String.fromCharCode(buf[at]);
  const line = buf.toString('utf8', at + 1, eol);
  switch (type) {
    case '+':
      return { value: line, next: eol + 2 };
    case '-':
      return { value: new RespError(line), next: eol + 2 };
    case ':':
      return { value: Number(line), next: eol + 2 };
    case '$': {
      const len = Number(line);
      if (len < 0) return { value: null, next: eol + 2 };
      if (buf.length < eol + 2 + len + 2) return undefined;
      return { value: buf.toString('utf8', eol + 2, eol + 2 + len), next: eol + 2 + len + 2 };
    }
    case '*': {
      const count = Number(line);
      if (count < 0) return { value: null, next: eol + 2 };
      const items: RespValue[] = [];
      let next = eol + 2;
      for (let i = 0; i < count; i++) {
        const item = parseReply(buf, next);
        if (!item) return undefined;
        items.push(item.value);
        next = item.next;
      }
      return { value: items, next };
    }
    default:
      throw new Error(`unexpected RESP type ${JSON.stringify(type)}`);
  }
}

export interface EngineTarget {
  host: string;
  port: number;
  caPem?: string;
}

/**
 * A socket to the engine once the host route is checked: TLS verified against the instance's
 * CA (the certificate names the node's address), or plain TCP; `ready` is the event after which
 * it may be written to.
 */
export async function openEngineSocket(target: EngineTarget, bridge: string): Promise<{ socket: net.Socket; ready: 'secureConnect' | 'connect' }> {
  await requireHostRoute(target.host, bridge);
  const socket = target.caPem
    ? tls.connect({ host: target.host, port: target.port, ca: target.caPem, servername: '', checkServerIdentity: (_n, cert) => tls.checkServerIdentity(target.host, cert) })
    : net.connect({ host: target.host, port: target.port });
  return { socket, ready: target.caPem ? 'secureConnect' : 'connect' };
}

/** Sends the commands in one write and returns their replies, in order. */
export async function converse(target: EngineTarget, bridge: string, commands: string[][], timeoutMs = 5_000): Promise<RespValue[]> {
  const { socket, ready } = await openEngineSocket(target, bridge);
  return new Promise((resolve, reject) => {
    const replies: RespValue[] = [];
    let buf = Buffer.alloc(0);
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no reply from ${target.host}:${target.port} within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.on(ready, () => socket.write(Buffer.concat(commands.map(encode))));
    socket.on('data', (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      let reply;
      while ((reply = parseReply(buf))) {
        replies.push(reply.value);
        buf = buf.subarray(reply.next);
      }
      if (replies.length >= commands.length) {
        clearTimeout(timer);
        socket.end();
        resolve(replies);
      }
    });
    socket.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      if (replies.length < commands.length) reject(new Error(`${target.host}:${target.port} closed the connection`));
    });
  });
}
