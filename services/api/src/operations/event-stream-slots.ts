// Live server-sent event streams per user: each one holds a connection and polls PostgreSQL
// every 500 ms, so one user (or one leaked key) opening streams without end would take the
// API's connections and the database's time. Counted in this process: with several API
// replicas behind a balancer a user may hold this many on each, a bound that still grows with
// the replicas, not with the user's requests.
import { Injectable } from '@nestjs/common';
import { DomainError } from '../common/errors.js';

/** Live event streams one user may hold at once (per API process). */
export const EVENT_STREAMS_PER_USER_MAX = 10;

export class TooManyEventStreams extends DomainError {
  constructor() {
    super(429, 'too_many_streams', `At most ${EVENT_STREAMS_PER_USER_MAX} live event streams per user; close one first`, { limit: EVENT_STREAMS_PER_USER_MAX });
  }
}

@Injectable()
export class EventStreamSlots {
  private readonly open = new Map<string, number>();

  /** Takes one of the user's slots, or throws TooManyEventStreams; the returned function gives it back (once). */
  take(userId: string): () => void {
    const held = this.open.get(userId) ?? 0;
    if (held >= EVENT_STREAMS_PER_USER_MAX) throw new TooManyEventStreams();
    this.open.set(userId, held + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.open.get(userId) ?? 1) - 1;
      if (left > 0) this.open.set(userId, left);
      else this.open.delete(userId);
    };
  }
}
