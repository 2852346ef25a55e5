// Secrets of a local installation, generated once and kept in the data dir (mode 600):
// the PostgreSQL password, the master key that encrypts instance passwords, and the first admin.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export function loadSecrets(dataDir) {
  const file = path.join(dataDir, 'secrets.json');
  let secrets = {};
  if (fs.existsSync(file)) secrets = JSON.parse(fs.readFileSync(file, 'utf8'));
  const filled = {
    pgPassword: secrets.pgPassword ?? crypto.randomBytes(18).toString('base64url'),
    masterKey: secrets.masterKey ?? crypto.randomBytes(32).toString('base64'),
    adminEmail: secrets.adminEmail ?? 'admin@basalt.local',
    adminPassword: secrets.adminPassword ?? crypto.randomBytes(12).toString('base64url'),
  };
  if (JSON.stringify(filled) !== JSON.stringify(secrets)) {
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(file, JSON.stringify(filled, null, 2), { mode: 0o600 });
  }
  // The environment overrides what is kept, without rewriting it.
  return {
    ...filled,
    adminEmail: process.env.BASALT_ADMIN_EMAIL || filled.adminEmail,
    adminPassword: process.env.BASALT_ADMIN_PASSWORD || filled.adminPassword,
    masterKey: process.env.BASALT_MASTER_KEY || filled.masterKey,
  };
}
