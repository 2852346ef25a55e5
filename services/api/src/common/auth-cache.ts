// Caches "which user holds this API key / session" for a moment, so a burst of requests costs one
// lookup. Logout and revocation in this process clear it at once; other replicas within the TTL.
import { Injectable } from '@nestjs/common';
import { ApiConfig } from '../config.js';
import type { AuthContext } from './request-context.js';
import { TtlCache } from './ttl-cache.js';

@Injectable()
export class AuthCache {
  readonly credentials: TtlCache<AuthContext | undefined>;

  constructor(config: ApiConfig) {
    this.credentials = new TtlCache(config.authCacheMs);
  }
}
