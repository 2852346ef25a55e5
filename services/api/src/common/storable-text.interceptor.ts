// Every route, before its handler and the validation pipe: a body or query holding text that
// PostgreSQL cannot store (storable-text.ts) is a 400 naming the field, never a database error.
// An interceptor rather than Express middleware so that the refusal goes through ErrorFilter and
// the audit log like any other validation failure, after authentication.
import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import type { Request } from 'express';
import type { Observable } from 'rxjs';
import { Invalid } from './errors.js';
import { findUnstorableText } from './storable-text.js';

@Injectable()
export class StorableTextInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<Request>();
    for (const [where, value] of [['body', request.body], ['query', request.query]] as const) {
      const found = findUnstorableText(value);
      if (found) {
        throw new Invalid(`Invalid request: ${found.field} (in the ${where}) ${found.problem}`, [{ field: found.field, problems: [found.problem] }]);
      }
    }
    return next.handle();
  }
}
