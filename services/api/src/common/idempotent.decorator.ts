// Marks a POST route as honouring `Idempotency-Key` and documents the header.
import { applyDecorators, UseInterceptors } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import { IdempotencyInterceptor } from './idempotency.interceptor.js';

export const Idempotent = () =>
  applyDecorators(
    UseInterceptors(IdempotencyInterceptor),
    ApiHeader({
      name: 'Idempotency-Key',
      required: false,
      description: 'Retry-safe key (1-255 visible ASCII characters, kept 24 h per user): a retry with the same body gets the first response again',
      schema: { type: 'string', maxLength: 255 },
    }),
  );
