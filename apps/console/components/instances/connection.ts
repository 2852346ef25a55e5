// How a user connects to an instance: the redis:// URI and the redis-cli command, built from an
// endpoint and a username. The password is never put in either; the user types it or exports it.
import type { Endpoint } from '@/data/instances/instance-query'

/** The primary endpoint (a standard instance's follows its primary), private first. */
export function preferredEndpoint(endpoints: Endpoint[] | undefined): Endpoint | undefined {
  const primary = endpoints?.filter((e) => e.role === 'primary') ?? []
  return primary.find((e) => e.type === 'private') ?? primary[0]
}

export function hostPort(endpoint: Endpoint): string {
  const host = endpoint.host.includes(':') ? `[${endpoint.host}]` : endpoint.host
  return `${host}:${endpoint.port}`
}

export function connectionUri(endpoint: Endpoint, username: string): string {
  const scheme = endpoint.tls ? 'rediss' : 'redis'
  return `${scheme}://${encodeURIComponent(username)}:<password>@${hostPort(endpoint)}`
}

export function redisCliCommand(endpoint: Endpoint, username: string): string {
  const parts = ['redis-cli', '-h', endpoint.host, '-p', String(endpoint.port)]
  if (endpoint.tls) parts.push('--tls')
  parts.push('--user', username, '--askpass')
  return parts.join(' ')
}
