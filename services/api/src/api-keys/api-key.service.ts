import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { UsersRepository } from '@basalt/db';
import { Invalid, NotFound } from '../common/errors.js';
import { hashToken } from '../common/password-hash.js';
import type { AuthContext } from '../common/request-context.js';
import { AuthCache } from '../common/auth-cache.js';
import { type ApiKeyDto, type CreatedApiKeyDto, toApiKeyDto } from './api-key.dto.js';

@Injectable()
export class ApiKeyService {
  constructor(
    private readonly users: UsersRepository,
    private readonly cache: AuthCache,
  ) {}

  /**
   * Key format `bsk_<8 id chars>_<secret>`; only its SHA-256 is stored. A key made with a key is
   * that key's child: it expires no later than its parent (an expiring parent needs an
   * `expires_at` no later than its own) and is revoked with it, so a leaked short-lived key
   * cannot buy itself a longer life.
   */
  async create(auth: AuthContext, name: string, expiresAt?: string): Promise<CreatedApiKeyDto> {
    const expires = expiresAt ? new Date(expiresAt) : null;
    if (expires && (Number.isNaN(expires.getTime()) || expires.getTime() <= Date.now())) throw new Invalid('expires_at must be a future date-time', [{ field: 'expires_at', problems: ['in the past'] }]);
    const parent = auth.apiKeyId ? await this.users.getApiKey(auth.user.id, auth.apiKeyId) : undefined;
    if (parent?.expiresAt && (!expires || expires > parent.expiresAt)) {
      throw new Invalid(`A key made with an API key cannot outlive it: expires_at must be no later than this key's ${parent.expiresAt.toISOString()}`, [
        { field: 'expires_at', problems: [`at most ${parent.expiresAt.toISOString()}`] },
      ]);
    }
    const prefix = `bsk_${randomBytes(6).toString('base64url')}`;
    const key = `${prefix}_${randomBytes(32).toString('base64url')}`;
    const row = await this.users.createApiKey({ userId: auth.user.id, name: name.trim(), prefix, keyHash: hashToken(key), expiresAt: expires, parentId: parent?.id ?? null });
    return { api_key: toApiKeyDto(row), key };
  }

  async list(auth: AuthContext): Promise<ApiKeyDto[]> {
    return (await this.users.listApiKeys(auth.user.id)).map(toApiKeyDto);
  }

  /** Revokes the key and the keys made from it, and theirs. */
  async revoke(auth: AuthContext, id: string): Promise<void> {
    if (!(await this.users.revokeApiKey(auth.user.id, id))) throw new NotFound('API key');
    // Only the hash identifies a cached key, so forget them all; revocations are rare.
    this.cache.credentials.clear();
  }
}
