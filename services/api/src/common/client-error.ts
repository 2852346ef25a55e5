// Requests Node rejects before Express sees them (header too large, malformed request line) get
// the house error body, and the rest of what the client sends is read and dropped before the
// socket closes, so the client reads a 4xx instead of a connection reset.
import { randomUUID } from 'node:crypto';
import { STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';

const DRAIN_MS = 2_000;

export function installClientErrorHandler(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
    const body = JSON.stringify({
      code: status === 431 ? 'headers_too_large' : status === 408 ? 'request_timeout' : 'invalid_request',
      message: status === 431 ? 'Request line or headers too large' : status === 408 ? 'Request timed out' : 'Malformed HTTP request',
      request_id: randomUUID(),
    });
    socket.on('data', () => {});
    socket.on('error', () => {});
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
    setTimeout(() => socket.destroy(), DRAIN_MS).unref();
  });
}
