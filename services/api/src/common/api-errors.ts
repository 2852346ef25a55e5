// Documents the error responses a route can return, all with the one error body.
import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { ErrorDto } from './error.dto.js';

const DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid input',
  401: 'Not authenticated',
  403: 'Not allowed for this role',
  404: 'Not found (or not visible to the caller)',
  409: 'Conflict with the current state',
  410: 'Gone: it expired',
  413: 'The body is larger than allowed',
  415: 'The body is not of the media type the route takes',
  429: 'Rate limited',
  503: 'Unavailable',
  504: 'The engine did not answer in time',
};

export const ApiErrors = (...statuses: number[]) =>
  applyDecorators(...statuses.map((status) => ApiResponse({ status, description: DESCRIPTIONS[status], type: ErrorDto })));
