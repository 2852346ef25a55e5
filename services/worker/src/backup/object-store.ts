// The object store client lives in @basalt/db (the API reads RDB exports and writes RDB imports
// through it too); the worker's backup code imports it from here as before.
export * from '@basalt/db/object-store';
