// Validators shared by DTOs: the tags decorator over the API's rules, which live in
// @basalt/api-client/rules so that the console and the worker check exactly the same; and the
// one way to say a field may be left out but not sent as null.
import { NotEquals, registerDecorator, ValidateIf, type ValidationOptions } from 'class-validator';
import {
  BACKUP_RETENTION_DAYS_MAX,
  BACKUP_RETENTION_DAYS_MIN,
  isBackupRetentionDays,
  isTags,
  parseBackupWindow,
  parsePointInTime,
  TAGS_MAX,
  TAG_VALUE_MAX,
} from '@basalt/api-client/rules';

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

/** A rule of @basalt/api-client/rules as a decorator: `validate` says yes, `message` says why not. */
function rule(name: string, validate: (value: unknown) => boolean, message: (value: unknown) => string, options?: ValidationOptions) {
  return (object: object, propertyName: string) =>
    registerDecorator({
      name,
      target: object.constructor,
      propertyName,
      options: { message: (args) => `${args.property} ${message(args.value)}`, ...options },
      validator: { validate },
    });
}

const refusal = (parsed: object) => ('error' in parsed ? String(parsed.error) : '');

/** The daily backup window, `HH:MM-HH:MM` UTC, at least an hour (parseBackupWindow). */
export const IsBackupWindow = (options?: ValidationOptions) =>
  rule(
    'isBackupWindow',
    (value) => typeof value === 'string' && !('error' in parseBackupWindow(value)),
    (value) => (typeof value === 'string' ? refusal(parseBackupWindow(value)) : 'must be a string HH:MM-HH:MM'),
    options,
  );

/** Days automatic backups are kept, an integer 0-35 (isBackupRetentionDays). */
export const IsBackupRetentionDays = (options?: ValidationOptions) =>
  rule(
    'isBackupRetentionDays',
    isBackupRetentionDays,
    () => `must be an integer from ${BACKUP_RETENTION_DAYS_MIN} to ${BACKUP_RETENTION_DAYS_MAX} (0: no automatic backups)`,
    options,
  );

/** A restore's point in time, RFC 3339 to the second with a time zone (parsePointInTime). */
export const IsPointInTime = (options?: ValidationOptions) =>
  rule(
    'isPointInTime',
    (value) => typeof value === 'string' && parsePointInTime(value) instanceof Date,
    (value) => (typeof value === 'string' ? refusal(parsePointInTime(value) as object) : 'must be an RFC 3339 string'),
    options,
  );
