// Global guard: authenticates by session cookie or `Authorization: Bearer <api key>`, then applies
// the per-caller rate limit. Routes marked @Public() skip authentication but not the limit, nor
// the Origin check on mutating calls (origin-check.ts).
import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { UsersRepository } from '@basalt/db';
import { ApiConfig } from '../config.js';
import { PUBLIC_ROUTE } from './decorators.js';
import { TooManyRequests, Unauthenticated } from './errors.js';
import { hashToken } from './password-hash.js';
import { RateLimiter } from './rate-limiter.js';
import { checkOrigin } from './origin-check.js';
import { AuthCache } from './auth-cache.js';
import type { AuthContext } from './request-context.js';
import { ProjectAccess } from '../projects/project-access.service.js';

export const SESSION_COOKIE = 'basalt_session';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

@Injectable()
export class AuthGuard implements CanActivate {
  private readonly limiter: RateLimiter;
  private readonly allowedOrigins: readonly string[];

  constructor(
    private readonly reflector: Reflector,
    private readonly users: UsersRepository,
    private readonly cache: AuthCache,
    private readonly access: ProjectAccess,
    config: ApiConfig,
  ) {
    this.limiter = new RateLimiter(config.rateLimitPerSecond, config.rateLimitPerSecond * 2);
    this.allowedOrigins = config.allowedOrigins;
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<Request>();
    const isPublic = this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, [context.getHandler(), context.getClass()]);
    checkOrigin(request, this.allowedOrigins);
    if (!isPublic) request.auth = await this.authenticate(request);
    // A project's audit log holds only calls of its members: anyone else's call to
    // /projects/<its id>/... is recorded without a project (and an anonymous one not at all).
    const project = request.params?.project;
    if (request.auth && typeof project === 'string' && UUID.test(project) && (await this.access.isMember(request.auth, project))) {
      request.auditProjectId = project;
    }
    const wait = this.limiter.take(request.auth ? `user:${request.auth.user.id}` : `ip:${request.ip}`);
    if (wait > 0) throw new TooManyRequests(wait);
    return true;
  }

  private async authenticate(request: Request): Promise<AuthContext> {
    const header = request.header('authorization');
    if (header) {
      const match = /^Bearer\s+(\S{1,200})$/i.exec(header);
      if (!match) throw new Unauthenticated('Authorization header must be "Bearer <api key>"');
      const keyHash = hashToken(match[1]!);
      const auth = await this.cache.credentials.get(`key:${keyHash}`, async () => {
        const found = await this.users.findUserByApiKey(keyHash);
        return found && { user: found.user, apiKeyId: found.apiKey.id, sessionTokenHash: null };
      });
      if (!auth) throw new Unauthenticated('Invalid, revoked or expired API key');
      return auth;
    }
    const token = request.cookies?.[SESSION_COOKIE];
    if (typeof token === 'string' && token.length > 0 && token.length < 200) {
      const tokenHash = hashToken(token);
      const auth = await this.cache.credentials.get(`session:${tokenHash}`, async () => {
        const user = await this.users.findUserBySession(tokenHash);
        return user && { user, apiKeyId: null, sessionTokenHash: tokenHash };
      });
      if (auth) return auth;
      throw new Unauthenticated('Session expired; log in again');
    }
    throw new Unauthenticated();
  }
}
