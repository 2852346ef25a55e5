// The console's queries run while the browser says it is offline: its API is its own origin
// (often this machine), and a browser on a host without a default route reads offline.
import { onlineManager, QueryObserver } from '@tanstack/react-query'
import { afterEach, describe, expect, it } from 'vitest'
import { makeQueryClient } from './providers'

afterEach(() => onlineManager.setOnline(true))

describe('the query client', () => {
  it('fetches and mutates while the browser reads offline', async () => {
    onlineManager.setOnline(false)
    const client = makeQueryClient()
    await expect(client.fetchQuery({ queryKey: ['offline-read'], queryFn: async () => 'read' })).resolves.toBe('read')
    const mutation = client.getMutationCache().build(client, { mutationFn: async () => 'written' })
    await expect(mutation.execute(undefined)).resolves.toBe('written')
  })

  it('polls on while the browser goes offline', async () => {
    const client = makeQueryClient()
    let fetches = 0
    const observer = new QueryObserver(client, { queryKey: ['poll'], queryFn: async () => ++fetches, refetchInterval: 20 })
    const stop = observer.subscribe(() => {})
    await new Promise((r) => setTimeout(r, 60))
    onlineManager.setOnline(false)
    const before = fetches
    await new Promise((r) => setTimeout(r, 150))
    stop()
    expect(fetches).toBeGreaterThan(before + 2)
  })
})
