// `Idempotency-Key` on POST: the first request with a key runs and its response is stored; a
// retry with the same key and body gets the stored response; the same key with another body is a
// 409. Keys are per caller and kept 24 hours. A request that fails frees its key for a retry.
import { createHash } from 'node:crypto';
import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import type { Request, Response } from 'express';
import { from, type Observable, of } from 'rxjs';
import { catchError, mergeMap, tap } from 'rxjs/operators';
import { IdempotencyRepository } from '@basalt/db';
import { Conflict, Invalid } from './errors.js';

const KEY = /^[\x21-\x7e]{1,255}$/;

@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(private readonly keys: IdempotencyRepository) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<Request>();
    const response = context.switchToHttp().getResponse<Response>();
    const key = request.header('idempotency-key');
    if (request.method !== 'POST' || key === undefined || !request.auth) return next.handle();
    if (!KEY.test(key)) throw new Invalid('Idempotency-Key must be 1-255 visible ASCII characters', undefined, 'invalid_idempotency_key');
    const principal = `user:${request.auth.user.id}`;
    const requestHash = createHash('sha256').update(`${request.method} ${request.originalUrl}\n${JSON.stringify(request.body ?? null)}`).digest('hex');

    return from(this.keys.claim(principal, key, requestHash)).pipe(
      mergeMap((existing) => {
        if (existing) {
          if (existing.requestHash !== requestHash) throw new Conflict('This Idempotency-Key was used with a different request', 'idempotency_key_reused');
          if (existing.statusCode === null) throw new Conflict('A request with this Idempotency-Key is still in progress', 'idempotency_in_progress');
          response.status(existing.statusCode);
          response.setHeader('Idempotent-Replayed', 'true');
          return of(existing.responseBody);
        }
        return next.handle().pipe(
          mergeMap((body) => from(this.keys.complete(principal, key, response.statusCode, body ?? null)).pipe(mergeMap(() => of(body)))),
          catchError((error) => from(this.keys.release(principal, key)).pipe(tap(() => { throw error; }))),
        );
      }),
    );
  }
}
