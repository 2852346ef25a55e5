// One data-browser request's connection to an instance's engine: opened, used for a bounded
// number of commands, closed. Commands go as RESP arrays of bulk strings (every argument is
// data); replies come through the bounded ReplyReader. One deadline covers the whole request:
// when it passes the socket is destroyed and every waiting command fails with EngineTimeout.
import type net from 'node:net';
import { openEngineSocket, type EngineTarget } from '../monitoring/engine-connection.js';
import { ReplyReader, type Reply, type ReplyLimits } from './resp-reader.js';

export class EngineTimeout extends Error {}
export class EngineUnreachable extends Error {}

export type Argument = string | Uint8Array;

export function encodeCommand(args: readonly Argument[]): Buffer {
  const parts: Buffer[] = [Buffer.from(`*${args.length}\r\n`)];
  for (const arg of args) {
    const data = typeof arg === 'string' ? Buffer.from(arg, 'utf8') : Buffer.from(arg.buffer, arg.byteOffset, arg.byteLength);
    parts.push(Buffer.from(`$${data.length}\r\n`), data, Buffer.from('\r\n'));
  }
  return Buffer.concat(parts);
}

interface Waiter {
  resolve(reply: Reply): void;
  reject(error: Error): void;
}

export class EngineSession {
  private readonly waiters: Waiter[] = [];
  private failure: Error | undefined;

  private constructor(
    private readonly socket: net.Socket,
    private readonly reader: ReplyReader,
    private readonly timer: NodeJS.Timeout,
  ) {
    socket.on('data', (chunk: Buffer) => {
      try {
        reader.feed(chunk);
      } catch (error) {
        return this.fail(new EngineUnreachable(`the engine sent a malformed reply: ${(error as Error).message}`));
      }
      let reply;
      while ((reply = reader.take())) this.waiters.shift()?.resolve(reply);
    });
    socket.on('error', (error) => this.fail(new EngineUnreachable(error.message)));
    socket.on('close', () => this.fail(new EngineUnreachable('the engine closed the connection')));
  }

  /** Connects within `deadlineMs` (which then goes on bounding the session's every command). */
  static async open(target: EngineTarget, bridge: string, limits: ReplyLimits, deadlineMs: number): Promise<EngineSession> {
    const { socket, ready } = await openEngineSocket(target, bridge);
    let session: EngineSession | undefined;
    const timer = setTimeout(() => {
      const error = new EngineTimeout(`the engine did not answer within ${deadlineMs} ms`);
      if (session) session.fail(error);
      else socket.destroy(error);
    }, deadlineMs);
    await new Promise<void>((resolve, reject) => {
      socket.once(ready, () => resolve());
      socket.once('error', (error) => reject(error instanceof EngineTimeout ? error : new EngineUnreachable(error.message)));
    }).catch((error: Error) => {
      clearTimeout(timer);
      socket.destroy();
      throw error;
    });
    session = new EngineSession(socket, new ReplyReader(limits), timer);
    return session;
  }

  /** Sends one command and waits for its reply. */
  send(args: readonly Argument[]): Promise<Reply> {
    return this.pipeline([args]).then((replies) => replies[0]!);
  }

  /** Sends the commands in one write; their replies, in order. */
  pipeline(commands: readonly (readonly Argument[])[]): Promise<Reply[]> {
    if (this.failure) return Promise.reject(this.failure);
    const replies = commands.map(() => new Promise<Reply>((resolve, reject) => this.waiters.push({ resolve, reject })));
    this.socket.write(Buffer.concat(commands.map(encodeCommand)));
    return Promise.all(replies);
  }

  close(): void {
    clearTimeout(this.timer);
    this.failure ??= new EngineUnreachable('the session is closed');
    this.socket.destroy();
  }

  private fail(error: Error): void {
    this.failure ??= error;
    clearTimeout(this.timer);
    this.socket.destroy();
    for (const waiter of this.waiters.splice(0)) waiter.reject(this.failure);
  }
}
