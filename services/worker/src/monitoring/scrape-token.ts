// The bearer token Prometheus scrapes every node's `/metrics` with. It lives only with the
// control plane, in the file Prometheus reads (`<sd dir>/scrape-token`, 0600, never on a command
// line); a node's config holds its SHA-256 alone, so a node's files cannot scrape another node.
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export function scrapeTokenFile(sdDir: string): string {
  return path.join(sdDir, 'scrape-token');
}

/** The token, made once (the first worker to start writes it; later ones read it). */
export function ensureScrapeToken(sdDir: string): string {
  const file = scrapeTokenFile(sdDir);
  fs.mkdirSync(sdDir, { recursive: true, mode: 0o700 });
  try {
    // `wx`: two workers starting at once cannot both write; the second reads the first's.
    fs.writeFileSync(file, randomBytes(32).toString('hex'), { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return fs.readFileSync(file, 'utf8').trim();
}

/** What a node's config holds: the hex SHA-256 of the token. */
export function scrapeTokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
