// Per-request facts shared by middleware, guard, interceptors and the error filter.
import type { UserRow } from '@basalt/db';

export interface AuthContext {
  user: UserRow;
  apiKeyId: string | null;
  sessionTokenHash: string | null;
}

declare module 'express-serve-static-core' {
  interface Request {
    requestId: string;
    auth?: AuthContext;
    auditProjectId?: string;
    /** What the call did, beside its route (a data-browser edit's kind, a command's name): never a value or secret. */
    auditDetail?: string;
  }
}
