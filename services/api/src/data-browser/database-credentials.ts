// The database user a data-browser request acts as: its name and password in two headers on
// every request (the console keeps the password in memory for the page's life only). Never
// stored, never logged: the API has no request log, the audit row holds the path and the
// edit's kind only, and error messages name the user, never the password.
import { applyDecorators, createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import type { Request } from 'express';
import { DATA_PASSWORD_HEADER, DATA_USER_HEADER, DB_USERNAME } from '@basalt/api-client/rules';
import { Invalid } from '../common/errors.js';

export interface DatabaseCredentials {
  username: string;
  password: string;
}

/** Longer than any password the rules allow, so a typed one is never cut: it is simply wrong. */
const PASSWORD_HEADER_MAX = 1024;

export const Credentials = createParamDecorator((_: unknown, ctx: ExecutionContext): DatabaseCredentials => {
  const request = ctx.switchToHttp().getRequest<Request>();
  const username = request.header(DATA_USER_HEADER) ?? '';
  const password = request.header(DATA_PASSWORD_HEADER) ?? '';
  if (!DB_USERNAME.test(username)) throw new Invalid(`The ${DATA_USER_HEADER} header must name one of the instance's database users`);
  if (!password || password.length > PASSWORD_HEADER_MAX) throw new Invalid(`The ${DATA_PASSWORD_HEADER} header must carry that user's password`);
  return { username, password };
});

/** The two headers in the spec, so the typed client asks for them. */
export const CredentialHeaders = () =>
  applyDecorators(
    ApiHeader({ name: DATA_USER_HEADER, required: true, description: 'The database user to act as' }),
    ApiHeader({ name: DATA_PASSWORD_HEADER, required: true, description: "That user's password: used for this request only, never stored" }),
  );
