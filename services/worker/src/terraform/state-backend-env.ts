// The pg backend's connection for one Terraform run: PG_CONN_STR without the password, and the
// password in a pgpass file (mode 600) in the instance's Terraform data dir, named by PGPASSFILE.
// Terraform's environment, which its provisioners and their scripts inherit, then holds no
// secret. lib/pq, the backend's driver, reads PGPASSFILE when the URL has no password, and
// ignores a file that its group or others may read.
import fs from 'node:fs';
import path from 'node:path';

/**
 * lib/pq insists on TLS unless told otherwise, whereas node-pg does not: a URL that says
 * nothing about sslmode gets `disable`, as node-pg would use it.
 */
function backendUrl(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  if (!url.searchParams.has('sslmode')) url.searchParams.set('sslmode', 'disable');
  return url.toString();
}

/** pgpass fields escape `\` and `:` with a backslash. */
const field = (text: string) => text.replace(/[\\:]/g, (c) => `\\${c}`);

export function stateBackendEnv(databaseUrl: string, dataDir: string): { PG_CONN_STR: string; PGPASSFILE?: string } {
  const url = new URL(backendUrl(databaseUrl));
  if (!url.password) return { PG_CONN_STR: url.toString() };
  const line = `*:*:*:${field(decodeURIComponent(url.username))}:${field(decodeURIComponent(url.password))}\n`;
  url.password = '';
  const file = path.join(dataDir, 'pgpass');
  // Written whole and renamed: a run that reads it meanwhile sees the old file or the new one.
  fs.mkdirSync(dataDir, { recursive: true });
  const partial = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(partial, line, { mode: 0o600 });
  fs.renameSync(partial, file);
  return { PG_CONN_STR: url.toString(), PGPASSFILE: file };
}
