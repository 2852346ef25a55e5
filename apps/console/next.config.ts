import type { NextConfig } from 'next'

// `/v1/*` is proxied by the route handler in app/v1/[...path]/route.ts, which reads
// BASALT_API_URL at request time, so one build serves any API address.
const nextConfig: NextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // Pages and their JavaScript go out gzipped. Server-Sent Events stay unbuffered all the same:
  // Next's compression skips a response marked `Cache-Control: no-transform`, which the /v1
  // proxy (lib/proxy.ts) sets on every event stream.
  compress: true,
}

export default nextConfig
