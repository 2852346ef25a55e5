// What an engine's reply means to the API: an error reply becomes the house error body with the
// engine's own words (NOPERM: the user's rules refuse it, 403; WRONGTYPE: the key holds another
// type, 409; anything else the engine refused, 400), integers become numbers.
import { DomainError } from '../common/errors.js';
import type { Reply } from './resp-reader.js';

export class EngineRefused extends DomainError {}

export function engineError(reply: Reply): EngineRefused {
  const message = reply.kind === 'error' ? reply.text : 'an unexpected reply';
  if (message.startsWith('NOPERM')) return new EngineRefused(403, 'database_permission_denied', `The database user may not do this: ${message}`);
  if (message.startsWith('WRONGTYPE')) return new EngineRefused(409, 'wrong_type', message);
  return new EngineRefused(400, 'engine_refused', `The engine refused it: ${message}`);
}

/** The reply, or the error it is. */
export function expectOk(reply: Reply): Reply {
  if (reply.kind === 'error') throw engineError(reply);
  return reply;
}

export function integerOf(reply: Reply | undefined): number {
  return reply?.kind === 'integer' ? Number(reply.value) : 0;
}

/** PTTL's answer: null for a key without expiry (-1) or gone (-2). */
export function ttlOf(reply: Reply | undefined): number | null {
  const ms = integerOf(reply);
  return reply?.kind === 'integer' && ms >= 0 ? ms : null;
}
