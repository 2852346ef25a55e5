// Forwards a browser request for `/v1/*` to the API at BASALT_API_URL, read per request so one
// build serves any API address. Streams both ways (Server-Sent Events stay live) and passes
// cookies through, which keeps the session cookie first-party for the console's origin.

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'upgrade',
  'proxy-connection',
  'te',
  'trailer',
  'host',
  // fetch() decodes bodies, so length and encoding from upstream no longer describe them.
  'content-length',
  'content-encoding',
])

export function apiBaseUrl(): string {
  const url = process.env.BASALT_API_URL || `http://127.0.0.1:${process.env.BASALT_API_PORT || 8080}`
  return url.replace(/\/+$/, '')
}

export function upstreamUrl(requestUrl: string, base: string = apiBaseUrl()): string {
  const { pathname, search } = new URL(requestUrl)
  return `${base}${pathname}${search}`
}

function forwardHeaders(source: Headers, clientIp: string | null): Headers {
  const headers = new Headers()
  source.forEach((value, name) => {
    if (!HOP_BY_HOP.has(name.toLowerCase())) headers.append(name, value)
  })
  if (clientIp) headers.set('x-forwarded-for', clientIp)
  return headers
}

/**
 * The console's own origin for the API (which refuses cookie-authenticated changes whose Origin
 * is another one): the host and scheme the browser used, unless a proxy in front already said.
 */
function withForwardedOrigin(headers: Headers, requestUrl: string): Headers {
  const url = new URL(requestUrl)
  if (!headers.has('x-forwarded-host')) headers.set('x-forwarded-host', url.host)
  if (!headers.has('x-forwarded-proto')) headers.set('x-forwarded-proto', url.protocol.replace(/:$/, ''))
  return headers
}

export async function proxyToApi(request: Request): Promise<Response> {
  const method = request.method.toUpperCase()
  const hasBody = method !== 'GET' && method !== 'HEAD'
  let upstream: Response
  try {
    upstream = await fetch(upstreamUrl(request.url), {
      method,
      // server.mjs makes this the real peer (a client's own X-Forwarded-For is dropped there).
      headers: withForwardedOrigin(forwardHeaders(request.headers, request.headers.get('x-forwarded-for')), request.url),
      body: hasBody ? request.body : undefined,
      redirect: 'manual',
      signal: request.signal,
      cache: 'no-store',
      // Required by Node's fetch to stream a request body.
      ...(hasBody ? { duplex: 'half' } : {}),
    } as RequestInit)
  } catch {
    return Response.json(
      { code: 'api_unreachable', message: 'The Basalt API cannot be reached from the console.' },
      { status: 502 },
    )
  }
  const headers = forwardHeaders(upstream.headers, null)
  if (headers.get('content-type')?.startsWith('text/event-stream')) {
    headers.set('cache-control', 'no-cache, no-transform')
    headers.set('x-accel-buffering', 'no')
  }
  return new Response(upstream.body, { status: upstream.status, statusText: upstream.statusText, headers })
}
