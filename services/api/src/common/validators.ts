// Validators shared by DTOs: the tags decorator over the API's rules, which live in
// @basalt/api-client/rules so that the console and the worker check exactly the same; and the
// one way to say a field may be left out but not sent as null.
import { NotEquals, registerDecorator, ValidateIf, type ValidationOptions } from 'class-validator';
import { isTags, TAGS_MAX, TAG_VALUE_MAX } from '@basalt/api-client/rules';

/**
 * May be left out, but not null. @IsOptional() skips every check for null too, so null would
 * reach a NOT NULL column or be stored as a value; here a null is checked like any other value,
 * and its message says to leave the field out. Use it on every field a PATCH may omit, and on
 * parameters that are stored as given.
 */
export function IsOptionalNotNull(options?: ValidationOptions): PropertyDecorator {
  return (object, propertyName) => {
    ValidateIf((_, value) => value !== undefined, options)(object, propertyName as string);
    NotEquals(null, { message: '$property must not be null (leave it out instead)', ...options })(object, propertyName as string);
  };
}

/** A map of at most 50 tags: keys `[A-Za-z0-9_.:/+@-]{1,64}`, string values up to 256 characters. */
export function IsTags(options?: ValidationOptions) {
  return (object: object, propertyName: string) =>
    registerDecorator({
      name: 'isTags',
      target: object.constructor,
      propertyName,
      options: { message: `${propertyName} must map at most ${TAGS_MAX} keys of [A-Za-z0-9_.:/+@-]{1,64} to strings of at most ${TAG_VALUE_MAX} characters`, ...options },
      validator: { validate: isTags },
    });
}
