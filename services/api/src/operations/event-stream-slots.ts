// Live server-sent event streams per user: each one holds a connection and polls PostgreSQL
// every 500 ms, so one user (or one leaked key) opening streams without end would take the
// API's connections and the database's time. Counted in PostgreSQL (event_streams), so the
// bound holds across every API replica: a stream's row is leased, renewed while it lives and
// deleted when it ends; a replica that dies leaves rows that stop counting within a lease.
import { Injectable } from '@nestjs/common';
import { EventStreamsRepository } from '@basalt/db';
import { DomainError } from '../common/errors.js';

/** Live event streams one user may hold at once. */
export const EVENT_STREAMS_PER_USER_MAX = 10;
/** Seconds a stream's slot is held without a renewal; renewed every third of it. */
const LEASE_SECONDS = 30;

export class TooManyEventStreams extends DomainError {
  constructor() {
    super(429, 'too_many_streams', `At most ${EVENT_STREAMS_PER_USER_MAX} live event streams per user; close one first`, { limit: EVENT_STREAMS_PER_USER_MAX });
  }
}

@Injectable()
export class EventStreamSlots {
  constructor(private readonly streams: EventStreamsRepository) {}

  /** Takes one of the user's slots, or throws TooManyEventStreams; the returned function gives it back (once). */
  async take(userId: string): Promise<() => void> {
    const id = await this.streams.take(userId, EVENT_STREAMS_PER_USER_MAX, LEASE_SECONDS);
    if (!id) throw new TooManyEventStreams();
    // A failed renewal or release only shortens or lengthens the slot by a lease; never the stream's fault.
    const renewal = setInterval(() => void this.streams.renew(id, LEASE_SECONDS).catch(() => {}), (LEASE_SECONDS * 1000) / 3);
    renewal.unref();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      clearInterval(renewal);
      void this.streams.release(id).catch(() => {});
    };
  }
}
