// Which errors mean "PostgreSQL is out of reach" (a 503 the client retries) and which are a
// query's own failure (a 500): the errors the driver and drizzle really throw, nested as drizzle
// nests them. The whole path (PostgreSQL stopped under the platform) is e2e/foundation/database-restart.
import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from '../src/common/database-unavailable.js';
import '../src/common/request-context.js';
import { toErrorResponse } from '../src/common/error.filter.js';

const wrapped = (cause: unknown) => Object.assign(new Error('Failed query: select ...'), { cause });

describe('a database out of reach', () => {
  it('is told from its connection errors, however drizzle wraps them', () => {
    expect(isDatabaseUnavailable(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }))).toBe(true);
    expect(isDatabaseUnavailable(wrapped(new Error('Connection terminated unexpectedly')))).toBe(true);
    expect(isDatabaseUnavailable(wrapped(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' })))).toBe(true);
    expect(isDatabaseUnavailable(wrapped(Object.assign(new Error('the database system is starting up'), { code: '57P03' })))).toBe(true);
    expect(isDatabaseUnavailable(new Error('timeout exceeded when trying to connect'))).toBe(true);
  });

  it('is not a failed query', () => {
    expect(isDatabaseUnavailable(wrapped(Object.assign(new Error('duplicate key value violates unique constraint'), { code: '23505' })))).toBe(false);
    expect(isDatabaseUnavailable(new Error('Cannot read properties of undefined'))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
  });

  it('answers 503 with the house error body', () => {
    const { status, body } = toErrorResponse(wrapped(Object.assign(new Error('x'), { code: 'ECONNREFUSED' })), 'req-1');
    expect(status).toBe(503);
    expect(body).toEqual({ code: 'database_unavailable', message: "The control plane's database is unreachable; try again in 5 s", request_id: 'req-1' });
    expect(toErrorResponse(new Error('boom'), 'req-2').status).toBe(500);
  });
});
