// Domain errors: services throw these; ErrorFilter turns them into {code, message, request_id, details}.
export class DomainError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

export class Invalid extends DomainError {
  constructor(message: string, details?: unknown, code = 'invalid_request') {
    super(400, code, message, details);
  }
}

export class Unauthenticated extends DomainError {
  constructor(message = 'Authentication required') {
    super(401, 'unauthenticated', message);
  }
}

export class Forbidden extends DomainError {
  constructor(message = 'Not allowed') {
    super(403, 'forbidden', message);
  }
}

export class NotFound extends DomainError {
  constructor(what: string) {
    super(404, 'not_found', `${what} not found`);
  }
}

export class Conflict extends DomainError {
  constructor(message: string, code = 'conflict', details?: unknown) {
    super(409, code, message, details);
  }
}

export class Gone extends DomainError {
  constructor(message: string) {
    super(410, 'gone', message);
  }
}

export class PayloadTooLarge extends DomainError {
  constructor(message: string) {
    super(413, 'payload_too_large', message);
  }
}

export class UnsupportedMediaType extends DomainError {
  constructor(message: string) {
    super(415, 'unsupported_media_type', message);
  }
}

export class TooManyRequests extends DomainError {
  constructor(readonly retryAfterSeconds: number) {
    super(429, 'rate_limited', 'Too many requests; retry later', { retry_after_seconds: retryAfterSeconds });
  }
}

/** A feature this platform runs without (e.g. no Prometheus): nothing to serve, not a fault. */
export class NotConfigured extends DomainError {
  constructor(message: string) {
    super(404, 'not_configured', message);
  }
}

export class ServiceUnavailable extends DomainError {
  constructor(message: string) {
    super(503, 'unavailable', message);
  }
}

/** PostgreSQL refused a row for a unique index (drizzle wraps the driver's error as `cause`). */
export function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: string })?.code === '23505' || (error as { cause?: { code?: string } })?.cause?.code === '23505';
}
