import { describe, expect, it } from 'vitest'
import { connectionUri, hostPort, preferredEndpoint, redisCliCommand } from './connection'
import { usernameFromUri } from './detail/connection-card'

describe('connection details', () => {
  const privateEp = { role: 'primary' as const, type: 'private' as const, host: '10.77.0.12', port: 6379, tls: false }
  const publicTls = { role: 'primary' as const, type: 'public' as const, host: 'db.example.test', port: 6380, tls: true }
  const readonly = { role: 'readonly' as const, type: 'private' as const, host: '10.77.0.13', port: 6379, tls: false }

  it('prefers the private primary endpoint, never the read-only one', () => {
    expect(preferredEndpoint([publicTls, privateEp])).toBe(privateEp)
    expect(preferredEndpoint([publicTls])).toBe(publicTls)
    expect(preferredEndpoint([readonly, publicTls])).toBe(publicTls)
    expect(preferredEndpoint([])).toBeUndefined()
  })

  it('builds a redis-cli command that asks for the password', () => {
    expect(redisCliCommand(privateEp, 'default')).toBe('redis-cli -h 10.77.0.12 -p 6379 --user default --askpass')
    expect(redisCliCommand(publicTls, 'app')).toBe('redis-cli -h db.example.test -p 6380 --tls --user app --askpass')
  })

  it('builds a URI with the password left out', () => {
    expect(connectionUri(publicTls, 'app user')).toBe('rediss://app%20user:<password>@db.example.test:6380')
    expect(hostPort({ ...privateEp, host: 'fd00::5' })).toBe('[fd00::5]:6379')
  })

  it('reads the username from the API’s redacted URI', () => {
    expect(usernameFromUri('redis://admin:****@10.0.0.1:6379')).toBe('admin')
    expect(usernameFromUri(null)).toBe('default')
    expect(usernameFromUri('not a uri')).toBe('default')
  })
})
