// `Idempotency-Key` on POST: the first request with a key runs and its response is stored; a
// retry with the same key and body gets the stored response; the same key with another body is a
// 409. Keys are per caller and kept 24 hours. A request that fails frees its key for a retry.
// Stored responses may hold a secret shown once (a password, an API key), so they are sealed
// with the master key; and a replay first checks the caller's access again (the route's rule,
// @Idempotent(replayNeeds)): someone removed from the project gets its 404, not the secret.
import { createHash } from 'node:crypto';
import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { from, type Observable, of } from 'rxjs';
import { catchError, mergeMap, tap } from 'rxjs/operators';
import { decryptSecret, encryptSecret, IdempotencyRepository } from '@basalt/db';
import { ApiConfig } from '../config.js';
import { ProjectAccess } from '../projects/project-access.service.js';
import { Conflict, Forbidden, Invalid } from './errors.js';
import { REPLAY_ACCESS, type ReplayAccess } from './idempotent.decorator.js';
import type { AuthContext } from './request-context.js';

const KEY = /^[\x21-\x7e]{1,255}$/;

/** What the idempotency table keeps of a response: its JSON, sealed. */
interface SealedBody {
  sealed: string;
}

@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(
    private readonly keys: IdempotencyRepository,
    private readonly config: ApiConfig,
    private readonly access: ProjectAccess,
    private readonly reflector: Reflector,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<Request>();
    const response = context.switchToHttp().getResponse<Response>();
    const key = request.header('idempotency-key');
    if (request.method !== 'POST' || key === undefined || !request.auth) return next.handle();
    if (!KEY.test(key)) throw new Invalid('Idempotency-Key must be 1-255 visible ASCII characters', undefined, 'invalid_idempotency_key');
    const auth = request.auth;
    const replayNeeds = this.reflector.get<ReplayAccess | undefined>(REPLAY_ACCESS, context.getHandler());
    const principal = `user:${auth.user.id}`;
    const requestHash = createHash('sha256').update(`${request.method} ${request.originalUrl}\n${JSON.stringify(request.body ?? null)}`).digest('hex');

    return from(this.keys.claim(principal, key, requestHash)).pipe(
      mergeMap((existing) => {
        if (existing) {
          if (existing.requestHash !== requestHash) throw new Conflict('This Idempotency-Key was used with a different request', 'idempotency_key_reused');
          if (existing.statusCode === null) throw new Conflict('A request with this Idempotency-Key is still in progress', 'idempotency_in_progress');
          const statusCode = existing.statusCode;
          return from(this.checkReplay(auth, request, replayNeeds)).pipe(
            mergeMap(() => {
              response.status(statusCode);
              response.setHeader('Idempotent-Replayed', 'true');
              return of(this.open(existing.responseBody));
            }),
          );
        }
        return next.handle().pipe(
          mergeMap((body) => from(this.keys.complete(principal, key, response.statusCode, this.seal(body))).pipe(mergeMap(() => of(body)))),
          catchError((error) => from(this.keys.release(principal, key)).pipe(tap(() => { throw error; }))),
        );
      }),
    );
  }

  /** The route's access rule again, as it stands now. */
  private async checkReplay(auth: AuthContext, request: Request, needs: ReplayAccess | undefined): Promise<void> {
    if (needs === undefined) throw new Error(`${request.path}: @Idempotent without a replay access rule`);
    if (needs === 'admin') {
      if (!auth.user.isAdmin) throw new Forbidden('Only administrators may do this');
      return;
    }
    if (needs === 'caller') return;
    const projectId = request.params.project;
    if (typeof projectId !== 'string') throw new Error(`${request.path}: replay needs a project role but the route has no :project`);
    await this.access.require(auth, projectId, needs);
  }

  private seal(body: unknown): SealedBody {
    return { sealed: encryptSecret(this.config.masterKey, JSON.stringify(body ?? null)) };
  }

  private open(stored: unknown): unknown {
    const sealed = (stored as Partial<SealedBody> | null)?.sealed;
    return typeof sealed === 'string' ? JSON.parse(decryptSecret(this.config.masterKey, sealed)) : null;
  }
}
