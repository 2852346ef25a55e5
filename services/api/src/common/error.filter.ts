// The one place errors become HTTP: DomainError keeps its status; Nest's own HttpExceptions (unknown
// route, etc.) keep theirs; PostgreSQL out of reach is a 503 the client may retry
// (database-unavailable.ts); anything else is a 500 that is logged without the request body.
import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { DomainError, TooManyRequests } from './errors.js';
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from './database-unavailable.js';

export interface ErrorBody {
  code: string;
  message: string;
  request_id: string;
  details?: unknown;
}

const CODES_BY_STATUS: Record<number, string> = {
  400: 'invalid_request',
  401: 'unauthenticated',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
};

/** Maps any thrown value to a status and body; shared with the Express-level error handler. */
export function toErrorResponse(error: unknown, requestId: string): { status: number; body: ErrorBody } {
  if (error instanceof DomainError) {
    return { status: error.status, body: { code: error.code, message: error.message, request_id: requestId, details: error.details } };
  }
  if (error instanceof HttpException) {
    const status = error.getStatus();
    return { status, body: { code: CODES_BY_STATUS[status] ?? 'error', message: error.message, request_id: requestId } };
  }
  const parserError = error as { status?: number; type?: string; message?: string };
  if (typeof parserError?.status === 'number' && parserError.status >= 400 && parserError.status < 500) {
    const message =
      parserError.type === 'entity.parse.failed'
        ? 'Malformed JSON body'
        : parserError.type === 'entity.too.large'
          ? 'Request body too large'
          : (parserError.message ?? 'Bad request');
    return { status: parserError.status, body: { code: CODES_BY_STATUS[parserError.status] ?? 'invalid_request', message, request_id: requestId } };
  }
  if (isDatabaseUnavailable(error)) {
    return {
      status: 503,
      body: { code: 'database_unavailable', message: `The control plane's database is unreachable; try again in ${DATABASE_RETRY_AFTER_SECONDS} s`, request_id: requestId },
    };
  }
  return { status: 500, body: { code: 'internal', message: 'Internal error', request_id: requestId } };
}

@Catch()
export class ErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('ErrorFilter');

  catch(error: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<Request>();
    const response = http.getResponse<Response>();
    const { status, body } = toErrorResponse(error, request.requestId ?? 'unknown');
    if (body.code === 'database_unavailable') {
      this.logger.warn(`${request.method} ${request.path} answered 503 (${body.request_id}): ${(error as Error)?.message ?? String(error)}`);
      response.setHeader('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS));
    } else if (status >= 500) {
      this.logger.error(`${request.method} ${request.path} failed (${body.request_id}): ${(error as Error)?.stack ?? String(error)}`);
    }
    if (error instanceof TooManyRequests) response.setHeader('Retry-After', String(error.retryAfterSeconds));
    if (response.headersSent) {
      response.end();
      return;
    }
    response.status(status).json(body);
  }
}
