// Validators shared by DTOs: the tags decorator over the API's rules, which live in
// @basalt/api-client/rules so that the console and the worker check exactly the same.
import { registerDecorator, type ValidationOptions } from 'class-validator';
import { isTags, TAGS_MAX, TAG_VALUE_MAX } from '@basalt/api-client/rules';


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
