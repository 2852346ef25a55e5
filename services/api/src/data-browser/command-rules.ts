// The command line runs one command on a connection of its own, as the logged-in user, and
// closes it. Commands that only make sense on a connection that lives on, or that would change
// who the connection is, are refused before they reach the engine, saying why.
import type { Argument } from './engine-session.js';

const CONNECTION_STATE = new Map<string, string>([
  ['AUTH', 'the browser acts as the user you logged in as; log in again as another user instead'],
  ['HELLO', 'the browser speaks RESP2 as the user you logged in as'],
  ['RESET', 'each command runs on a fresh connection already'],
  ['QUIT', 'each command runs on a fresh connection already'],
  ['SELECT', 'the browser shows database 0'],
  ['MULTI', 'one command at a time: a transaction needs a connection that lives on (use redis-cli)'],
  ['EXEC', 'one command at a time: a transaction needs a connection that lives on (use redis-cli)'],
  ['DISCARD', 'one command at a time: a transaction needs a connection that lives on (use redis-cli)'],
  ['WATCH', 'one command at a time: a transaction needs a connection that lives on (use redis-cli)'],
  ['UNWATCH', 'one command at a time: a transaction needs a connection that lives on (use redis-cli)'],
  ['SUBSCRIBE', 'subscriptions need a connection that lives on (use redis-cli)'],
  ['PSUBSCRIBE', 'subscriptions need a connection that lives on (use redis-cli)'],
  ['SSUBSCRIBE', 'subscriptions need a connection that lives on (use redis-cli)'],
  ['UNSUBSCRIBE', 'subscriptions need a connection that lives on (use redis-cli)'],
  ['PUNSUBSCRIBE', 'subscriptions need a connection that lives on (use redis-cli)'],
  ['SUNSUBSCRIBE', 'subscriptions need a connection that lives on (use redis-cli)'],
  ['MONITOR', 'it streams without end (use redis-cli)'],
]);

/** Why the browser does not run this command, or undefined when it does. */
export function refusedCommand(args: Argument[]): string | undefined {
  const name = nameOf(args);
  const why = CONNECTION_STATE.get(name);
  if (why) return `${name} is not run by the data browser: ${why}`;
  if (name === 'CLIENT' && nameOf(args.slice(1)) === 'REPLY') return 'CLIENT REPLY is not run by the data browser: every command gets its reply';
  return undefined;
}

/** The command's name in upper case ('' for none). */
export function nameOf(args: Argument[]): string {
  const first = args[0];
  if (first === undefined) return '';
  return (typeof first === 'string' ? first : Buffer.from(first).toString('latin1')).toUpperCase();
}

/** A name fit for the audit row: a command's name as commands are named, else nothing of what was typed. */
export function auditNameOf(args: Argument[]): string {
  const name = nameOf(args);
  return /^[A-Z][A-Z0-9_|-]{0,31}$/.test(name) ? name : 'command';
}
