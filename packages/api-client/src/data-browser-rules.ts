// The data browser (issue 46): the bounds of every call, one source for the API (400 beyond
// them), the console (its inputs) and the tests. Each request opens one connection to the
// instance, runs a bounded amount of work as the person's database user, and closes it.

/** The key types the browser shows and filters by (SCAN ... TYPE). */
export const DATA_KEY_TYPES = ['string', 'hash', 'list', 'set', 'zset', 'stream'] as const;
export type DataKeyType = (typeof DATA_KEY_TYPES)[number];

/** Keys one listing asks for (SCAN COUNT, and the keys a page returns at most). */
export const DATA_SCAN_COUNT_DEFAULT = 100;
export const DATA_SCAN_COUNT_MAX = 500;
/** SCAN calls one listing makes at most to fill a page (a sparse MATCH returns few per call). */
export const DATA_SCAN_CALLS_MAX = 10;
/** Elements of a hash, list, set, sorted set or stream one page of a value shows. */
export const DATA_PAGE_DEFAULT = 50;
export const DATA_PAGE_MAX = 200;
/** Bytes shown of one string, field, member or element; longer ones are cut, with their true length. */
export const DATA_VALUE_BYTES_SHOWN = 64 * 1024;
/** Bytes of a command line's reply kept in all; the rest is counted, not kept. */
export const DATA_REPLY_BYTES_MAX = 256 * 1024;
/** Elements of a command line's reply shown (in all, over every nested array). */
export const DATA_REPLY_ITEMS_MAX = 1000;
/** The longest key, pattern, field or member accepted. */
export const DATA_KEY_BYTES_MAX = 16 * 1024;
/** The longest value written through the browser (the API's body limit is 1 MB). */
export const DATA_VALUE_BYTES_MAX = 512 * 1024;
/** The longest command line. */
export const DATA_COMMAND_BYTES_MAX = 512 * 1024;
/** How long one request may take at the engine, connecting and logging in included. */
export const DATA_TIMEOUT_MS = 5_000;

/** The headers that carry the database user's name and password on each request (never stored). */
export const DATA_USER_HEADER = 'x-basalt-database-user';
export const DATA_PASSWORD_HEADER = 'x-basalt-database-password';
