// Records every authenticated mutating call (who, what, when, request id, outcome) once its
// response is sent. An unauthenticated call is not recorded: anyone could fill the log with
// them; the error log and the rate limiter see them.
import { Injectable, Logger, type NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { AuditRepository } from '@basalt/db';

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

@Injectable()
export class AuditMiddleware implements NestMiddleware {
  private readonly logger = new Logger('Audit');

  constructor(private readonly audit: AuditRepository) {}

  use(request: Request, response: Response, next: NextFunction): void {
    if (MUTATING.has(request.method)) {
      response.on('finish', () => {
        if (!request.auth) return;
        const route = (request.route as { path?: string } | undefined)?.path;
        this.audit
          .record({
            projectId: request.auditProjectId ?? null,
            userId: request.auth?.user.id ?? null,
            apiKeyId: request.auth?.apiKeyId ?? null,
            method: request.method,
            // The path never holds secrets; query strings are left out.
            path: request.path.slice(0, 500),
            action: `${request.method} ${route ?? request.path.slice(0, 200)}${request.auditDetail ? ` (${request.auditDetail.slice(0, 64)})` : ''}`,
            statusCode: response.statusCode,
            requestId: request.requestId,
            ip: request.ip ?? null,
          })
          .catch((error: Error) => this.logger.warn(`audit record failed (${request.requestId}): ${error.message}`));
      });
    }
    next();
  }
}
