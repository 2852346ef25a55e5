import type { NextConfig } from 'next'

// `/v1/*` is proxied by the route handler in app/v1/[...path]/route.ts, which reads
// BASALT_API_URL at request time, so one build serves any API address.
const nextConfig: NextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // Server-Sent Events from the API must reach the browser unbuffered.
  compress: false,
}

export default nextConfig
