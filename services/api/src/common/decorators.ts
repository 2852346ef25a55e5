// Route metadata and parameter decorators.
import { createParamDecorator, type ExecutionContext, SetMetadata } from '@nestjs/common';
import type { Request } from 'express';
import type { AuthContext } from './request-context.js';

export const PUBLIC_ROUTE = 'basalt:public';
/** The route needs no session or API key. */
export const Public = () => SetMetadata(PUBLIC_ROUTE, true);

/** The authenticated caller (the guard has already rejected anonymous requests). */
export const Auth = createParamDecorator((_: unknown, ctx: ExecutionContext): AuthContext => {
  return ctx.switchToHttp().getRequest<Request>().auth!;
});
