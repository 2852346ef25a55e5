// Secrets of a local installation, generated once and kept in the data dir (mode 600):
// the PostgreSQL password, the master key that encrypts instance passwords, the first admin, and
// the embedded object store's key pair (the store reads it from its identities file).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** `given`: the secret variables the environment set (start.mjs reads them before it clears them). */
export function loadSecrets(dataDir, given = process.env) {
  const file = path.join(dataDir, 'secrets.json');
  let secrets = {};
  if (fs.existsSync(file)) secrets = JSON.parse(fs.readFileSync(file, 'utf8'));
  const filled = {
    pgPassword: secrets.pgPassword ?? crypto.randomBytes(18).toString('base64url'),
    masterKey: secrets.masterKey ?? crypto.randomBytes(32).toString('base64'),
    adminEmail: secrets.adminEmail ?? 'admin@basalt.local',
    adminPassword: secrets.adminPassword ?? crypto.randomBytes(12).toString('base64url'),
    objectStoreAccessKey: secrets.objectStoreAccessKey ?? `BASALT${crypto.randomBytes(7).toString('hex').toUpperCase()}`,
    objectStoreSecretKey: secrets.objectStoreSecretKey ?? crypto.randomBytes(30).toString('base64url'),
  };
  if (JSON.stringify(filled) !== JSON.stringify(secrets)) {
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(file, JSON.stringify(filled, null, 2), { mode: 0o600 });
  }
  // The environment overrides what is kept, without rewriting it.
  return {
    ...filled,
    adminEmail: process.env.BASALT_ADMIN_EMAIL || filled.adminEmail,
    adminPassword: given.BASALT_ADMIN_PASSWORD || filled.adminPassword,
    masterKey: given.BASALT_MASTER_KEY || filled.masterKey,
  };
}

/** Variables that hold a secret: read by `npm start`, never passed on to a child as a value. */
export const SECRET_VARIABLES = ['DATABASE_URL', 'BASALT_MASTER_KEY', 'BASALT_ADMIN_PASSWORD', 'PGPASSWORD'];

/** `env` without the secret variables and their NAME_FILE forms (a child is given its own). */
export function withoutSecrets(env) {
  const names = new Set(SECRET_VARIABLES.flatMap((name) => [name, `${name}_FILE`]));
  return Object.fromEntries(Object.entries(env).filter(([name]) => !names.has(name)));
}

/**
 * Writes each secret ({NAME: value}) to its own mode-600 file in `dir` (mode 700) and returns
 * {NAME_FILE: path}: what the API and the worker read (packages/db/src/env-secret.ts), so the
 * values never sit in their environment.
 */
export function secretFiles(dir, values) {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.chmodSync(dir, 0o700);
  const env = {};
  for (const [name, value] of Object.entries(values)) {
    if (!value) continue;
    const file = path.join(dir, name.toLowerCase().replaceAll('_', '-'));
    fs.rmSync(file, { force: true });
    fs.writeFileSync(file, value, { mode: 0o600 });
    env[`${name}_FILE`] = file;
  }
  return env;
}
