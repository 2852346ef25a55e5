'use client'
import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { useState, type ReactNode } from 'react'
import { isUnauthorized } from '@/data/fetcher'
import { goToLogin } from '@/lib/to-login'

/** Any 401 means the session is gone: go to the login page and come back here afterwards. */
function toLogin(error: unknown) {
  if (isUnauthorized(error)) goToLogin({ returnHere: true })
}

export function Providers({ children }: { children: ReactNode }) {
  const [queryClient] = useState(
    () =>
      new QueryClient({
        queryCache: new QueryCache({ onError: toLogin }),
        mutationCache: new MutationCache({ onError: toLogin }),
        defaultOptions: {
          queries: {
            staleTime: 10_000,
            retry: (count, error) => !isUnauthorized(error) && count < 2,
            refetchOnWindowFocus: true,
          },
        },
      }),
  )
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
}
