'use client'
import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { useState, type ReactNode } from 'react'
import { isUnauthorized } from '@/data/fetcher'
import { goToLogin } from '@/lib/to-login'

/** Any 401 means the session is gone: go to the login page and come back here afterwards. */
function toLogin(error: unknown) {
  if (isUnauthorized(error)) goToLogin({ returnHere: true })
}

/**
 * The console's queries and mutations. They always run, whatever the browser says of its
 * connection (`networkMode: 'always'`): the API is the console's own origin, often on this
 * machine or a private network, and the browser's online flag is about the internet. A host
 * with no default route reads offline, and with the default mode every poll (a report's
 * progress, an instance's status) stopped for good when a bridge port went down.
 */
export function makeQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({ onError: toLogin }),
    mutationCache: new MutationCache({ onError: toLogin }),
    defaultOptions: {
      queries: {
        staleTime: 10_000,
        retry: (count, error) => !isUnauthorized(error) && count < 2,
        refetchOnWindowFocus: true,
        networkMode: 'always',
      },
      mutations: { networkMode: 'always' },
    },
  })
}

export function Providers({ children }: { children: ReactNode }) {
  const [queryClient] = useState(makeQueryClient)
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
}
