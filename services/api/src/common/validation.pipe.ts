// Validates bodies, queries and path params against their DTO classes; every failure is a 400
// that names the fields, never a 500.
import { type ArgumentMetadata, Injectable, type PipeTransform, ValidationPipe, type ValidationError } from '@nestjs/common';
import { Invalid } from './errors.js';

function flatten(errors: ValidationError[], parent = ''): { field: string; problems: string[] }[] {
  return errors.flatMap((error) => {
    const field = parent ? `${parent}.${error.property}` : error.property;
    const own = error.constraints ? [{ field, problems: Object.values(error.constraints) }] : [];
    return [...own, ...flatten(error.children ?? [], field)];
  });
}

@Injectable()
export class RequestValidationPipe implements PipeTransform {
  private readonly inner = new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    forbidUnknownValues: true,
    stopAtFirstError: false,
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => {
      const details = flatten(errors);
      const summary = details.map((d) => `${d.field}: ${d.problems.join(', ')}`).join('; ');
      return new Invalid(summary ? `Invalid request: ${summary}` : 'Invalid request', details);
    },
  });

  async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const isDto = typeof metadata.metatype === 'function' && ![String, Number, Boolean, Array, Object].includes(metadata.metatype as never);
    if (metadata.type === 'body' && isDto && (value === undefined || value === null || typeof value !== 'object' || Array.isArray(value))) {
      throw new Invalid('Request body must be a JSON object (Content-Type: application/json)');
    }
    if (metadata.type === 'query' && isDto && (value === undefined || value === null)) value = {};
    return this.inner.transform(value, metadata);
  }
}
