// Cross-site request forgery: a browser sends the session cookie with any request to the API's
// origin, whoever's page asked for it. Browsers name the page's origin in `Origin` on every
// cross-origin request and every POST, so a mutating call that carries one must come from the
// API's own origin (as the console's /v1 proxy forwards it: X-Forwarded-Host and -Proto, trusted
// from loopback) or one listed in BASALT_ALLOWED_ORIGINS. Calls with an API key (`Authorization`)
// are not at risk (a page cannot make a browser add that header), nor are clients that send no
// Origin at all (not a browser).
import type { Request } from 'express';
import { Forbidden } from './errors.js';

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export function checkOrigin(request: Request, allowedOrigins: readonly string[]): void {
  if (!MUTATING.has(request.method) || request.header('authorization')) return;
  const origin = request.header('origin');
  if (origin === undefined) return;
  const own = `${request.protocol}://${request.host}`;
  if (origin === own || allowedOrigins.includes(origin)) return;
  throw new Forbidden(`Cross-origin request from ${origin.slice(0, 200)} refused; the console's own origin is ${own}`);
}
