// BASALT_BACKUP_S3_*: the object store's settings, read the same way by the worker (backups,
// RDB exports) and the API (RDB uploads and downloads), each failing at start with its own error.
import fs from 'node:fs';
import path from 'node:path';
import type { ObjectStoreConfig } from './object-store.js';

const BACKUP_PREFIX = 'BASALT_BACKUP_S3_';
/** S3's rule for a bucket name usable in both addressing styles. */
const BUCKET_NAME = /^(?!\d+\.\d+\.\d+\.\d+$)[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/**
 * BASALT_BACKUP_S3_*: the bucket (which turns backups on), the endpoint (none: AWS S3), region,
 * addressing style, and the credentials as files only, each checked readable now rather than at
 * the first backup. A setting given without the bucket is refused, not ignored.
 */
export function backupStoreConfigOf(env: NodeJS.ProcessEnv, fail: (message: string) => Error = (message) => new Error(message)): ObjectStoreConfig | undefined {
  for (const name of ['ACCESS_KEY', 'SECRET_KEY']) {
    if (env[`${BACKUP_PREFIX}${name}`]) {
      throw fail(`${BACKUP_PREFIX}${name} is not read: put the credential in a file and set ${BACKUP_PREFIX}${name}_FILE to its path`);
    }
  }
  const bucket = env.BASALT_BACKUP_S3_BUCKET;
  if (!bucket) {
    const given = Object.keys(env).filter((name) => name.startsWith(BACKUP_PREFIX) && env[name]);
    if (given.length > 0) throw fail(`${given.join(', ')} set without BASALT_BACKUP_S3_BUCKET, the bucket backups go to`);
    return undefined;
  }
  if (!BUCKET_NAME.test(bucket) || bucket.includes('..')) {
    throw fail(`BASALT_BACKUP_S3_BUCKET must be an S3 bucket name (3-63 of a-z, 0-9, '.', '-'), not ${bucket}`);
  }
  const region = env.BASALT_BACKUP_S3_REGION || 'us-east-1';
  if (!/^[a-z0-9-]{1,32}$/.test(region)) throw fail(`BASALT_BACKUP_S3_REGION must be a region name such as eu-west-1, not ${region}`);
  return {
    endpoint: backupEndpointOf(env.BASALT_BACKUP_S3_ENDPOINT, fail),
    bucket,
    region,
    forcePathStyle: booleanOf(env.BASALT_BACKUP_S3_FORCE_PATH_STYLE, false, 'BASALT_BACKUP_S3_FORCE_PATH_STYLE', fail),
    accessKeyFile: credentialFileOf(env, 'BASALT_BACKUP_S3_ACCESS_KEY_FILE', fail),
    secretKeyFile: credentialFileOf(env, 'BASALT_BACKUP_S3_SECRET_KEY_FILE', fail),
  };
}

/** An http(s) origin: no path, query or user in it (a key in the URL would sit in the environment). */
function backupEndpointOf(text: string | undefined, fail: (message: string) => Error): string | undefined {
  if (!text) return undefined;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw fail(`BASALT_BACKUP_S3_ENDPOINT must be a URL such as http://127.0.0.1:9000, not ${text}`);
  }
  if (!['http:', 'https:'].includes(url.protocol) || url.username || url.password || url.search || url.hash || url.pathname !== '/') {
    throw fail(`BASALT_BACKUP_S3_ENDPOINT must be http(s)://host[:port] and nothing more, not ${text}`);
  }
  return url.origin;
}

function credentialFileOf(env: NodeJS.ProcessEnv, name: string, fail: (message: string) => Error): string {
  const file = env[name];
  if (!file) throw fail(`${name} is not set: the path of a file holding the key (BASALT_BACKUP_S3_BUCKET is set)`);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw fail(`${name}: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  if (!text.trim()) throw fail(`${name}: ${file} is empty`);
  return path.resolve(file);
}

function booleanOf(text: string | undefined, fallback: boolean, name: string, fail: (message: string) => Error): boolean {
  if (text === undefined || text === '') return fallback;
  if (text === 'true' || text === 'false') return text === 'true';
  throw fail(`${name} must be true or false, not ${text}`);
}

