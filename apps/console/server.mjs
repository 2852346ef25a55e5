// The console's production server: Next's request handler behind a plain Node http server.
// `next start` keeps any X-Forwarded-For a client sends, and the /v1 proxy (lib/proxy.ts) hands it
// to the API, which trusts its loopback peer: so anyone could pick the address the API rate-limits
// logins by and writes into the audit log. Here the header is dropped before Next sees it, and Next
// then sets it to the real peer. BASALT_CONSOLE_TRUST_PROXY=1 keeps it, for a console that sits
// behind a reverse proxy of your own that sets it.
// Usage: PORT=3000 BASALT_CONSOLE_HOST=127.0.0.1 node apps/console/server.mjs (after `next build`).
// (Not HOSTNAME: shells and containers export that as the machine's name.)
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import next from 'next';

const port = Number(process.env.PORT || 3000);
const hostname = process.env.BASALT_CONSOLE_HOST || '127.0.0.1';
const trustProxy = process.env.BASALT_CONSOLE_TRUST_PROXY === '1';

const app = next({ dev: false, dir: fileURLToPath(new URL('.', import.meta.url)), hostname, port });
const handle = app.getRequestHandler();
await app.prepare();

const server = createServer((req, res) => {
  if (!trustProxy) delete req.headers['x-forwarded-for'];
  handle(req, res);
});
server.listen(port, hostname, () => console.log(`Basalt console ready on http://${hostname}:${port}`));
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, () => server.close(() => process.exit(0)));
}
