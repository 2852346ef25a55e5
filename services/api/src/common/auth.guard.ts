// Global guard: authenticates by session cookie or `Authorization: Bearer <api key>`, then applies
// the per-caller rate limit. Routes marked @Public() skip authentication but not the limit.
import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { UsersRepository } from '@basalt/db';
import { ApiConfig } from '../config.js';
import { PUBLIC_ROUTE } from './decorators.js';
import { TooManyRequests, Unauthenticated } from './errors.js';
import { hashToken } from './password-hash.js';
import { RateLimiter } from './rate-limiter.js';
import { AuthCache } from './auth-cache.js';
import type { AuthContext } from './request-context.js';

export const SESSION_COOKIE = 'basalt_session';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

@Injectable()
export class AuthGuard implements CanActivate {
  private readonly limiter: RateLimiter;

  constructor(
    private readonly reflector: Reflector,
    private readonly users: UsersRepository,
    private readonly cache: AuthCache,
    config: ApiConfig,
  ) {
    this.limiter = new RateLimiter(config.rateLimitPerSecond, config.rateLimitPerSecond * 2);
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<Request>();
    const isPublic = this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, [context.getHandler(), context.getClass()]);
    const project = request.params?.project;
    if (typeof project === 'string' && UUID.test(project)) request.auditProjectId = project;
    if (!isPublic) request.auth = await this.authenticate(request);
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
