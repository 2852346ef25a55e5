// @vitest-environment node
// The /v1 proxy against a real HTTP server standing in the API's place on a loopback port.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { proxyToApi, upstreamUrl } from './proxy'

let server: http.Server
let base: string

beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url === '/v1/events') {
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      res.write('data: {"n":1}\n\n')
      // The second event only after the client has had the first: proves streaming, not buffering.
      setTimeout(() => res.end('data: {"n":2}\n\n'), 300)
      return
    }
    let body = ''
    req.on('data', (chunk) => (body += chunk))
    req.on('end', () => {
      res.setHeader('set-cookie', ['basalt_session=abc; HttpOnly; Path=/', 'other=1; Path=/'])
      res.setHeader('content-type', 'application/json')
      res.statusCode = req.url?.startsWith('/v1/missing') ? 404 : 200
      if (req.url === '/v1/forwarded') return res.end(JSON.stringify({ host: req.headers['x-forwarded-host'], proto: req.headers['x-forwarded-proto'] }))
      res.end(JSON.stringify({ method: req.method, url: req.url, cookie: req.headers.cookie ?? null, body }))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  process.env.BASALT_API_URL = `${base}/`
})

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

describe('proxyToApi', () => {
  it('keeps path and query and drops the console origin', () => {
    expect(upstreamUrl('http://console:3000/v1/projects?limit=5', 'http://api:8080')).toBe('http://api:8080/v1/projects?limit=5')
  })

  it('forwards method, body and cookies, and returns every Set-Cookie', async () => {
    const res = await proxyToApi(
      new Request('http://console.test/v1/auth/login?x=1', {
        method: 'POST',
        headers: { cookie: 'basalt_session=old', 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'a@b.test' }),
      }),
    )
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({
      method: 'POST',
      url: '/v1/auth/login?x=1',
      cookie: 'basalt_session=old',
      body: '{"email":"a@b.test"}',
    })
    expect(res.headers.getSetCookie()).toEqual(['basalt_session=abc; HttpOnly; Path=/', 'other=1; Path=/'])
  })

  it("tells the API the console's host and scheme (its origin), unless a proxy in front already did", async () => {
    const own = await proxyToApi(new Request('http://console.test:3000/v1/forwarded', { method: 'POST', body: '{}' }))
    expect(await own.json()).toEqual({ host: 'console.test:3000', proto: 'http' })
    const behind = await proxyToApi(
      new Request('http://127.0.0.1:3000/v1/forwarded', { method: 'POST', body: '{}', headers: { 'x-forwarded-host': 'console.example', 'x-forwarded-proto': 'https' } }),
    )
    expect(await behind.json()).toEqual({ host: 'console.example', proto: 'https' })
  })

  it('passes error statuses through unchanged', async () => {
    const res = await proxyToApi(new Request('http://console.test/v1/missing'))
    expect(res.status).toBe(404)
  })

  it('streams Server-Sent Events as they come', async () => {
    const res = await proxyToApi(new Request('http://console.test/v1/events'))
    expect(res.headers.get('content-type')).toBe('text/event-stream')
    expect(res.headers.get('cache-control')).toBe('no-cache, no-transform')
    const reader = res.body!.getReader()
    const started = Date.now()
    const first = new TextDecoder().decode((await reader.read()).value)
    expect(first).toBe('data: {"n":1}\n\n')
    expect(Date.now() - started).toBeLessThan(250)
    let rest = ''
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) rest += new TextDecoder().decode(chunk.value)
    expect(rest).toBe('data: {"n":2}\n\n')
  })

  it('answers 502 with a clear message when the API is down', async () => {
    const saved = process.env.BASALT_API_URL
    process.env.BASALT_API_URL = 'http://127.0.0.1:1'
    try {
      const res = await proxyToApi(new Request('http://console.test/v1/projects'))
      expect(res.status).toBe(502)
      expect(await res.json()).toMatchObject({ code: 'api_unreachable' })
    } finally {
      process.env.BASALT_API_URL = saved
    }
  })
})
