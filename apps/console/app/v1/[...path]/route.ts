import { proxyToApi } from '@/lib/proxy'

// Every `/v1/*` call from the browser goes through here to the API (see lib/proxy.ts).
export const dynamic = 'force-dynamic'

export const GET = proxyToApi
export const HEAD = proxyToApi
export const POST = proxyToApi
export const PUT = proxyToApi
export const PATCH = proxyToApi
export const DELETE = proxyToApi
export const OPTIONS = proxyToApi
