// Express-level plumbing that runs before Nest's router: request ids, JSON parsing with a size
// limit, and the error handler that turns parser failures into the house error body.
import { randomUUID } from 'node:crypto';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { NestExpressApplication } from '@nestjs/platform-express';
import cookieParser from 'cookie-parser';
import { toErrorResponse } from './error.filter.js';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
// A full allowlist (1000 entries with descriptions) fits; anything larger is a 413.
export const BODY_LIMIT = '1mb';
const DRAIN_LIMIT_MS = 5_000;

export function installHttpPlumbing(app: NestExpressApplication): void {
  app.disable('x-powered-by');
  // API responses change with every operation; hashing each body for an ETag is wasted work.
  app.set('etag', false);
  app.set('trust proxy', 'loopback');
  app.set('query parser', 'simple');
  app.use((req: Request, res: Response, next: NextFunction) => {
    const incoming = req.header('x-request-id');
    req.requestId = incoming && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    res.setHeader('X-Request-Id', req.requestId);
    next();
  });
  app.use(cookieParser());
  app.use(express.json({ limit: BODY_LIMIT, type: ['application/json', 'application/*+json'] }));
  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    const { status, body } = toErrorResponse(error, req.requestId ?? randomUUID());
    const send = () => res.status(status).json(body);
    if (req.complete) return send();
    // The parser stopped reading (e.g. body too large): drain the rest, briefly, so the client
    // gets the 413 instead of a reset connection, and close the connection after it.
    res.setHeader('Connection', 'close');
    const timer = setTimeout(send, DRAIN_LIMIT_MS);
    req.on('end', () => {
      clearTimeout(timer);
      send();
    });
    req.resume();
  });
}
