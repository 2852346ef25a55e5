// Marks a POST route as honouring `Idempotency-Key` and documents the header. `replayNeeds` is
// what a replay checks again before it returns the stored response (the route's own access
// rule): the project role for routes under /projects/:project, administrator for admin routes;
// routes of the caller's own (their API keys, a project they create) need nothing more.
import { applyDecorators, SetMetadata, UseInterceptors } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import { IdempotencyInterceptor } from './idempotency.interceptor.js';

export type ReplayAccess = 'viewer' | 'member' | 'owner' | 'admin' | 'caller';
export const REPLAY_ACCESS = 'basalt:idempotent-replay-access';

export const Idempotent = (replayNeeds: ReplayAccess) =>
  applyDecorators(
    SetMetadata(REPLAY_ACCESS, replayNeeds),
    UseInterceptors(IdempotencyInterceptor),
    ApiHeader({
      name: 'Idempotency-Key',
      required: false,
      description: 'Retry-safe key (1-255 visible ASCII characters, kept 24 h per user): a retry with the same body gets the first response again',
      schema: { type: 'string', maxLength: 255 },
    }),
  );
